/**
 * The recall index: ranking, recency, removal, filtering, chunked builds, the acceptance scenario
 * (an old item that answers the question beats 300 newer ones), and a randomized cross-check of
 * every score against BM25 computed directly from its definition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HALF_LIFE_DAYS, RecallIndex, recencyFactor, type QueryPart, type RecallDoc, type RecallHit } from '../helpers/recall-reference';
import { terms } from '../../src/util/terms';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');

function indexOf(docs: RecallDoc[]): RecallIndex {
  const ix = new RecallIndex();
  for (const d of docs) ix.add(d);
  return ix;
}

const ids = (hits: RecallHit[]) => hits.map((h) => h.id);
const opts = { now: NOW, limit: 10 };

describe('RecallIndex ranking', () => {
  it('ranks a rare-term match above a common-term match', () => {
    const docs = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, text: `deploy service number ${i}`, time: NOW }));
    docs.push({ id: 100, text: 'kubernetes cluster notes', time: NOW });
    const hits = indexOf(docs).search('deploy kubernetes', opts);
    expect(hits[0]!.id).toBe(100);
    expect(hits[0]!.relevance).toBeGreaterThan(2 * hits[1]!.relevance);
  });

  it('maxDf leaves out terms more documents share, unless every query term is that common', () => {
    const docs = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, text: `deploy service number ${i}`, time: NOW }));
    docs.push({ id: 100, text: 'kubernetes cluster notes deploy', time: NOW });
    const ix = indexOf(docs);
    // "deploy" is in 21 documents: left out, so only the kubernetes item matches.
    expect(ids(ix.search('deploy kubernetes', { ...opts, maxDf: 5 }))).toEqual([100]);
    expect(ix.search('deploy kubernetes', { ...opts, limit: 50 }).length).toBe(21);
    // Only common terms: they are kept rather than finding nothing.
    expect(ix.search('deploy', { ...opts, maxDf: 5 }).length).toBe(10);
  });

  it('ranks more matched terms higher', () => {
    const ix = indexOf([
      { id: 1, text: 'alpha filler filler filler', time: NOW },
      { id: 2, text: 'alpha beta filler filler', time: NOW },
      { id: 3, text: 'alpha beta gamma filler', time: NOW },
      { id: 4, text: 'filler filler filler filler', time: NOW },
    ]);
    expect(ids(ix.search('gamma beta alpha', opts))).toEqual([3, 2, 1]);
  });

  it('weighs query parts; a term takes its largest weight and counts once per part', () => {
    const ix = indexOf([
      { id: 1, text: 'alpha one', time: NOW },
      { id: 2, text: 'beta two', time: NOW },
      { id: 3, text: 'other three', time: NOW },
    ]);
    const q = (a: number, b: number): QueryPart[] => [
      { text: 'alpha', weight: a },
      { text: 'beta', weight: b },
    ];
    expect(ids(ix.search(q(1, 0.3), opts))).toEqual([1, 2]);
    expect(ids(ix.search(q(0.3, 1), opts))).toEqual([2, 1]);
    const once = ix.search('alpha', opts)[0]!.relevance;
    expect(ix.search('alpha alpha alphas', opts)[0]!.relevance).toBe(once);
    expect(
      ix.search(
        [
          { text: 'alpha', weight: 0.5 },
          { text: 'alpha', weight: 1 },
        ],
        opts,
      )[0]!.relevance,
    ).toBe(once);
    expect(ix.search([{ text: 'alpha', weight: 0.5 }], opts)[0]!.relevance).toBeCloseTo(once / 2, 12);
    expect(ix.search([{ text: 'alpha', weight: 0 }], opts)).toEqual([]);
  });

  it('drops hits below minRelevance', () => {
    const docs = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, text: `common word ${i}`, time: NOW }));
    docs.push({ id: 100, text: 'rare common', time: NOW });
    const ix = indexOf(docs);
    const all = ix.search('rare common', { ...opts, limit: 50 });
    expect(all).toHaveLength(21);
    const cut = (all[0]!.relevance + all[1]!.relevance) / 2;
    expect(ids(ix.search('rare common', { ...opts, limit: 50, minRelevance: cut }))).toEqual([100]);
  });

  it('finds nothing for stop words alone or unknown terms', () => {
    const ix = indexOf([{ id: 1, text: 'the staging database', time: NOW }]);
    expect(ix.search('the and of it', opts)).toEqual([]);
    expect(ix.search('zyzzyva', opts)).toEqual([]);
    expect(ix.search('', opts)).toEqual([]);
    expect(new RecallIndex().search('staging', opts)).toEqual([]);
  });
});

describe('RecallIndex recency', () => {
  it('has a factor of 1 now, halving its part above the floor every half-life', () => {
    expect(recencyFactor(NOW, NOW)).toBe(1);
    expect(recencyFactor(NOW + DAY, NOW)).toBe(1);
    expect(recencyFactor(NOW - HALF_LIFE_DAYS * DAY, NOW)).toBeCloseTo(0.8, 12);
    expect(recencyFactor(NOW - 10 * 365 * DAY, NOW)).toBeGreaterThan(0.6);
    expect(recencyFactor(NOW - 10 * 365 * DAY, NOW)).toBeLessThan(0.61);
    expect(recencyFactor(Number.NaN, NOW)).toBe(0.6);
  });

  it('puts the newer item first on a tie or near-tie, but a clearly more relevant old item still wins', () => {
    const ix = indexOf([
      { id: 1, text: 'deploy script notes', time: NOW - 400 * DAY },
      { id: 2, text: 'deploy script notes', time: NOW - 1 * DAY },
      { id: 3, text: 'deploy script notes', time: NOW - 1 * DAY },
      { id: 4, text: 'deploy script notes extra', time: NOW - 5 * DAY },
      { id: 5, text: 'unrelated', time: NOW },
    ]);
    const hits = ix.search('deploy script', opts);
    // 1–3 tie on relevance; 4 is a little less relevant (longer) but newer than 1.
    expect(ids(hits)).toEqual([3, 2, 4, 1]);
    expect(hits[0]!.relevance).toBe(hits[3]!.relevance);
    expect(hits[2]!.relevance).toBeLessThan(hits[3]!.relevance);

    const old = indexOf([
      { id: 1, text: 'staging database host zebra', time: NOW - 3 * 365 * DAY },
      { id: 2, text: 'database backups', time: NOW },
      { id: 3, text: 'something else', time: NOW },
    ]);
    expect(ids(old.search('staging database host', opts))).toEqual([1, 2]);
  });
});

describe('RecallIndex changes', () => {
  const base = [
    { id: 1, text: 'alpha beta', time: NOW },
    { id: 2, text: 'alpha gamma gamma', time: NOW - DAY },
    { id: 3, text: 'beta delta', time: NOW - 2 * DAY },
    { id: 4, text: 'epsilon', time: NOW - 3 * DAY },
  ];

  it('removes, replaces and re-adds, scoring like a fresh index of what is left', () => {
    const ix = indexOf(base);
    expect(ix.size).toBe(4);
    ix.remove(2);
    ix.remove(99);
    expect(ix.has(2)).toBe(false);
    expect(ix.size).toBe(3);
    expect(ix.search('alpha gamma beta', opts)).toEqual(indexOf(base.filter((d) => d.id !== 2)).search('alpha gamma beta', opts));

    ix.add({ id: 1, text: 'zeta only', time: NOW });
    expect(ix.size).toBe(3);
    expect(ids(ix.search('alpha', opts))).toEqual([]);
    expect(ids(ix.search('zeta', opts))).toEqual([1]);

    ix.add({ id: 2, text: 'alpha back again', time: NOW });
    expect(ix.has(2)).toBe(true);
    const live = [{ id: 1, text: 'zeta only', time: NOW }, base[2]!, base[3]!, { id: 2, text: 'alpha back again', time: NOW }];
    for (const q of ['alpha', 'beta delta zeta', 'gamma', 'epsilon back'])
      expect(ix.search(q, opts)).toEqual(indexOf(live).search(q, opts));
  });

  it('stays right through compaction (most documents removed) and re-adds after it', () => {
    const docs = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      text: `item ${i % 7 === 0 ? 'seven' : 'plain'} word${i % 13}`,
      time: NOW - i * DAY,
    }));
    const ix = indexOf(docs);
    for (let i = 1; i <= 150; i++) ix.remove(i);
    expect(ix.size).toBe(50);
    const left = docs.slice(150);
    for (const q of ['seven', 'plain word3', 'word12 item', 'word0'])
      expect(ix.search(q, { ...opts, limit: 100 })).toEqual(indexOf(left).search(q, { ...opts, limit: 100 }));
    ix.add({ id: 5, text: 'seven again', time: NOW });
    expect(ix.search('seven', opts)[0]!.id).toBe(5);
    for (let i = 151; i <= 200; i++) ix.remove(i);
    expect(ix.size).toBe(1);
    expect(ids(ix.search('plain seven', opts))).toEqual([5]);
  });

  it('keeps track of ids that crowd one another (multiples of large powers of two, ids past 2^32)', () => {
    const all = [
      ...Array.from({ length: 3000 }, (_, i) => (i + 1) * 65536),
      ...Array.from({ length: 3000 }, (_, i) => 2 ** 32 * (i + 1) + 7),
      ...Array.from({ length: 3000 }, (_, i) => i + 1),
    ];
    const ix = new RecallIndex();
    const live = new Set<number>();
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let step = 0; step < 30_000; step++) {
      const id = all[Math.floor(rand() * all.length)]!;
      if (rand() < 0.6) {
        ix.add({ id, text: `item ${id}`, time: NOW });
        live.add(id);
      } else {
        ix.remove(id);
        live.delete(id);
      }
    }
    expect(ix.size).toBe(live.size);
    for (const id of all) expect(ix.has(id)).toBe(live.has(id));
    expect(ix.search('item', { ...opts, limit: 1e9 }).length).toBe(live.size);
  });

  it('applies the accept filter, only to matching documents, and still fills the limit', () => {
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, text: i % 2 ? 'target text' : 'other text', time: NOW - i * DAY }));
    const seen: number[] = [];
    const hits = indexOf(docs).search('target', { ...opts, limit: 5, accept: (id) => (seen.push(id), id % 4 !== 0) });
    expect(ids(hits)).toEqual([2, 6, 10, 14, 18]);
    expect(seen.every((id) => id % 2 === 0)).toBe(true);
  });

  it('returns at most limit hits, best first', () => {
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, text: `shared ${'extra '.repeat(i)}`, time: NOW }));
    const ix = indexOf(docs);
    expect(ids(ix.search('shared', { ...opts, limit: 3 }))).toEqual([1, 2, 3]);
    expect(ix.search('shared', { ...opts, limit: 0 })).toEqual([]);
    const all = ix.search('shared', { ...opts, limit: 100 });
    expect(all).toHaveLength(30);
    for (let i = 1; i < all.length; i++) expect(all[i]!.score).toBeLessThanOrEqual(all[i - 1]!.score);
  });

  it('lets accept run a search of its own', () => {
    const ix = indexOf(base);
    const hits = ix.search('alpha beta', { ...opts, accept: (id) => ix.search('gamma', opts).some((h) => h.id === id) || id === 3 });
    expect(hits).toEqual(ix.search('alpha beta', { ...opts, accept: (id) => id === 2 || id === 3 }));
    expect(ids(hits).sort()).toEqual([2, 3]);
  });
});

describe('RecallIndex.build', () => {
  it('gives the same results in chunks as added one by one, later duplicates winning', async () => {
    const words = ['deploy', 'staging', 'database', 'host', 'cache', 'token', 'review', 'python', 'docker', 'release'];
    const docs = Array.from({ length: 100 }, (_, i) => ({
      id: (i % 90) + 1,
      text: Array.from({ length: 3 + (i % 5) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
      time: NOW - i * DAY,
    }));
    let pauses = 0;
    const built = await RecallIndex.build(docs, { chunk: 7, pause: async () => void pauses++ });
    expect(pauses).toBe(14);
    const added = indexOf(docs);
    expect(built.size).toBe(90);
    for (const q of ['deploy', 'staging database host', 'python docker review token', 'release cache']) {
      expect(built.search(q, { ...opts, limit: 100 })).toEqual(added.search(q, { ...opts, limit: 100 }));
    }
    expect((await RecallIndex.build([])).size).toBe(0);
  });
});

describe('RecallIndex acceptance', () => {
  /** 300 varied, realistic memory items, all newer than the one that answers the question. */
  function realistic(): RecallDoc[] {
    const subjects = [
      'the user',
      'the team',
      'our CI',
      'the backend',
      'the mobile app',
      'the docs site',
      'the billing service',
      'the data pipeline',
    ];
    const templates = [
      (s: string, n: number) => `${s} prefers pnpm over npm for project ${n}`,
      (s: string, n: number) => `${s} deploys with make release every Friday at ${n} pm`,
      (s: string, n: number) => `${s} uses Python ${(n % 4) + 9} with poetry and ruff`,
      (s: string, n: number) => `analytics database backups for ${s} run nightly to bucket b${n}`,
      (s: string, n: number) => `${s} likes to write commit messages in the imperative mood (${n})`,
      (s: string, n: number) => `${s} leaves code review comments before lunch on day ${n}`,
      (s: string, n: number) => `${s} keeps secrets in the vault under path kv/app${n}`,
      (s: string, n: number) => `prefer concise answers with code first for ${s}, ticket ${n}`,
      (s: string, n: number) => `${s} runs kubernetes cluster k${n} in eu-west-1`,
      (s: string, n: number) => `the production api for ${s} is served behind nginx on port ${8000 + n}`,
      (s: string, n: number) => `${s} tracks issues in Linear, project key ENG-${n}`,
      (s: string, n: number) => `tests for ${s} use vitest with ${n} workers and coverage over 80 percent`,
    ];
    return Array.from({ length: 300 }, (_, i) => ({
      id: i + 2,
      text: templates[i % templates.length]!(subjects[(i * 5) % subjects.length]!, i),
      time: NOW - (i % 60) * DAY,
    }));
  }
  const THRESHOLD = 7;

  it('ranks an old item that answers the question first, and finds nothing strong for an unrelated prompt', () => {
    const docs = [{ id: 1, text: 'the staging database lives on host zebra-17', time: NOW - 2 * 365 * DAY }, ...realistic()];
    const ix = indexOf(docs);
    const hits = ix.search('where does the staging database live?', { ...opts, minRelevance: THRESHOLD });
    expect(hits[0]!.id).toBe(1);
    expect(hits[0]!.relevance).toBeGreaterThan(THRESHOLD);
    // Other items match "database" too; the threshold, not the match, is what leaves them out.
    expect(ix.search('where does the staging database live?', { ...opts, limit: 400 }).length).toBeGreaterThan(10);

    const haiku = 'write a haiku about autumn leaves';
    expect(ix.search(haiku, opts).length).toBeGreaterThan(0);
    expect(ix.search(haiku, { ...opts, minRelevance: THRESHOLD })).toEqual([]);
  });
});

describe('RecallIndex against BM25 computed directly', () => {
  const K1 = 1.2;
  const B = 0.75;

  /** Okapi BM25 over the live documents, recency factor and order written out from their definitions. */
  function naive(
    live: Map<number, RecallDoc>,
    parts: QueryPart[],
    now: number,
    minRelevance: number,
  ): Array<{ id: number; score: number; relevance: number; time: number }> {
    const weight = new Map<string, number>();
    for (const p of parts) if (p.weight > 0) for (const t of terms(p.text)) weight.set(t, Math.max(weight.get(t) ?? 0, p.weight));
    const docs = [...live.values()].map((d) => ({ d, t: terms(d.text) }));
    const n = docs.length;
    const avg = docs.reduce((a, x) => a + x.t.length, 0) / n;
    const out = [];
    for (const { d, t } of docs) {
      let rel = 0;
      for (const [term, w] of weight) {
        const tf = t.filter((x) => x === term).length;
        if (tf === 0) continue;
        const df = docs.filter((x) => x.t.includes(term)).length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        rel += (w * idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * t.length) / avg));
      }
      if (rel === 0 || rel < minRelevance) continue;
      const age = Math.max(0, now - d.time) / DAY;
      out.push({ id: d.id, relevance: rel, score: rel * (0.6 + 0.4 * 0.5 ** (age / 90)), time: d.time });
    }
    return out.sort((a, b) => b.score - a.score || b.time - a.time || b.id - a.id);
  }

  const word = fc.constantFrom(
    'alpha',
    'alphas',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    'zeta',
    'eta',
    'theta',
    'iota',
    'kappa',
    'the',
    'and',
    '42',
  );
  const text = fc.array(word, { maxLength: 12 }).map((w) => w.join(' '));
  const op = fc.oneof(
    { weight: 4, arbitrary: fc.record({ add: fc.integer({ min: 1, max: 25 }), text, age: fc.integer({ min: 0, max: 1000 }) }) },
    { weight: 1, arbitrary: fc.record({ remove: fc.integer({ min: 1, max: 25 }) }) },
  );
  const query = fc.record({
    parts: fc.array(fc.record({ text, weight: fc.constantFrom(1, 0.5, 0.25, 2) }), { minLength: 1, maxLength: 3 }),
    limit: fc.integer({ min: 1, max: 30 }),
    minRelevance: fc.constantFrom(0, 0, 1, 3),
    filter: fc.boolean(),
  });

  it('matches in every score and in the order of the top k, through adds, removals and replacements', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(op, query), { minLength: 1, maxLength: 60 }), (steps) => {
        const ix = new RecallIndex();
        const live = new Map<number, RecallDoc>();
        for (const [o, q] of steps) {
          if ('add' in o) {
            const doc = { id: o.add, text: o.text, time: NOW - o.age * DAY * 0.37 };
            ix.add(doc);
            live.set(o.add, doc);
          } else {
            ix.remove(o.remove);
            live.delete(o.remove);
          }
          expect(ix.size).toBe(live.size);
          const accept = q.filter ? (id: number) => id % 3 !== 0 : undefined;
          const hits = ix.search(q.parts, { now: NOW, limit: q.limit, minRelevance: q.minRelevance, ...(accept && { accept }) });
          const want = live.size === 0 ? [] : naive(live, q.parts, NOW, q.minRelevance).filter((h) => !accept || accept(h.id));
          expect(hits.length).toBe(Math.min(q.limit, want.length));
          const byId = new Map(want.map((h) => [h.id, h]));
          for (let i = 0; i < hits.length; i++) {
            const h = hits[i]!;
            const w = byId.get(h.id)!;
            expect(w).toBeDefined();
            expect(h.relevance).toBeCloseTo(w.relevance, 9);
            expect(h.score).toBeCloseTo(w.score, 9);
            // The k-th hit is as good as the k-th of the direct ranking (up to rounding).
            expect(h.score).toBeGreaterThan(want[i]!.score - 1e-9);
            expect(h.score).toBeLessThan(want[i]!.score + 1e-9);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
