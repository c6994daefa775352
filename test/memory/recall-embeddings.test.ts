/**
 * Hybrid recall against the real store and the test server's /v1/embeddings: batching, the vector
 * cache (restart, resume, torn tail, model and dimension changes, forgotten items), the per-turn time
 * limit, and fusion (an item found by meaning alone reaches [recall]; the RRF arithmetic).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig, type EmbeddingsConfig } from '../../src/config/types';
import { vectorsPath } from '../../src/memory/embed/vector-file';
import { formatPlan } from '../../src/memory/recall/format-plan';
import { planJson } from '../../src/memory/recall/plan';
import { MemorySession } from '../../src/memory/session';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/openai-server';
import { tmpDir } from '../helpers/tmp';

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI();
});
afterAll(() => server.close());
beforeEach(() => {
  server.embeddings.reset();
  server.embeddings.extraDims = 0;
  server.embeddings.concepts = {
    database: ['database', 'db', 'postgres', 'sql'],
    backup: ['backups', 'backup', 'snapshot', 'snapshotted'],
    time: ['nightly', 'when', 'schedule', 'daily'],
    deploy: ['deploy', 'release', 'ship', 'rollout'],
  };
});

function config(embeddings?: Partial<EmbeddingsConfig> | null): AishConfig {
  const memory = DEFAULT_CONFIG.memory as Exclude<AishConfig['memory'], false>;
  return {
    ...DEFAULT_CONFIG,
    models: { local: { model: 'chat-model', baseURL: server.url } },
    defaultModel: 'local',
    memory: {
      ...memory,
      injectMaxChars: 0, // nothing in [background]: every item may be recalled
      recall: { ...memory.recall, ...(embeddings !== null && { embeddings: { model: 'embed-1', ...embeddings } }) },
    },
  };
}

/** A store of `n` filler items (no concept words) and the given ones, written as a file. */
function store(extra: string[], n = 0): string {
  const path = join(tmpDir(), 'memory.jsonl');
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  const texts = [...Array.from({ length: n }, (_, i) => `gardening note ${i}: tomatoes like warm soil`), ...extra];
  texts.forEach((content, i) => {
    const ts = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    lines.push(JSON.stringify({ id: i + 1, ts, kind: 'fact', content, uid: `u${i + 1}` }));
  });
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

function open(path: string, cfg = config()) {
  const notices: string[] = [];
  const m = new MemorySession(cfg, path, {}, { notice: (_k, t) => notices.push(t), changed: () => {} });
  return { m, notices };
}

const inputs = () => server.embeddings.requests.map((r) => r.input.length);
const recordBytes = (dim: number) => 16 + dim * 4;

describe('hybrid recall: embedding in the background', () => {
  it('embeds every item in batches of 64 with the configured model; a restart embeds nothing again', async () => {
    const path = store([], 150);
    const a = open(path);
    await a.m.ready();
    await a.m.embedding();
    expect(inputs()).toEqual([64, 64, 22]);
    expect(new Set(server.embeddings.requests.map((r) => r.model))).toEqual(new Set(['embed-1']));
    expect(server.embeddings.requests[0]!.encodingFormat).toBe('float');
    expect(server.embeddings.requests[0]!.dimensions).toBeUndefined(); // the model's own unless configured
    expect(statSync(vectorsPath(path)).mode & 0o777).toBe(0o600);
    a.m.close();

    server.embeddings.reset();
    const b = open(path);
    await b.m.ready();
    await b.m.embedding();
    expect(server.embeddings.requests).toHaveLength(0);
    // An item added since is the only one embedded.
    await b.m.store().add('fact', 'the deploy happens on fridays');
    await b.m.embedding();
    expect(server.embeddings.requests.map((r) => r.input)).toEqual([['the deploy happens on fridays']]);
    b.m.close();
  });

  it('resumes where it stopped: a session closed mid-way leaves whole batches, the next embeds only the rest', async () => {
    const path = store([], 300);
    server.embeddings.delayMs = 150;
    const a = open(path);
    await a.m.ready();
    void a.m.embedding();
    // Batches go one after another: the third is asked for once the second is written.
    await server.embeddings.waitForRequests(3);
    a.m.close();
    const dim = Object.keys(server.embeddings.concepts).length + 1;
    const size = statSync(vectorsPath(path)).size;
    const header = readFileSync(vectorsPath(path)).readUInt32LE(8) + 16;
    const kept = (size - header) / recordBytes(dim);
    expect(kept).toBe(128);
    // A crash in the middle of a write leaves a torn record: ignored, then cut before the next append.
    appendFileSync(vectorsPath(path), Buffer.alloc(recordBytes(dim) >> 1, 7));

    server.embeddings.reset();
    const b = open(path);
    await b.m.ready();
    await b.m.embedding();
    expect(inputs().reduce((n, x) => n + x, 0)).toBe(300 - kept);
    expect(statSync(vectorsPath(path)).size).toBe(header + 300 * recordBytes(dim));
    b.m.close();
  });

  it('a failing server pauses embedding with one warning; recall goes on by words', async () => {
    const path = store(['postgres backups run nightly'], 10);
    server.embeddings.failNext = 1;
    const a = open(path);
    await a.m.ready();
    await a.m.embedding();
    expect(a.notices.filter((n) => n.startsWith('memory embeddings paused:'))).toHaveLength(1);
    const r = await a.m.recall([{ text: 'postgres backups', weight: 1 }]);
    expect(r?.items.map((i) => i.item.content)).toEqual(['postgres backups run nightly']);
    expect(r?.meaning?.used).toBe(false);
    a.m.close();
  });
});

describe('hybrid recall: a cache that cannot be written', () => {
  it('pauses embedding with one warning and no crash; recall goes on by words', async () => {
    const path = store(['postgres backups run nightly'], 10);
    mkdirSync(join(vectorsPath(path), 'in-the-way'), { recursive: true });
    const a = open(path);
    await a.m.ready();
    await a.m.embedding();
    expect(a.notices).toEqual([expect.stringMatching(/^memory embeddings paused: .* — recall uses words alone until it answers$/)]);
    const r = await a.m.recall([{ text: 'postgres backups', weight: 1 }]);
    expect(r?.items.map((i) => i.item.content)).toEqual(['postgres backups run nightly']);
    a.m.close();
  });
});

describe('hybrid recall: a turn', () => {
  const facts = ['postgres backups run nightly at 2am', 'we deploy with make ship after review'];

  it('an item that shares no word with the message reaches [recall] by meaning; the plan shows its ranks', async () => {
    const path = store(facts, 40);
    const s = open(path);
    await s.m.ready();
    await s.m.embedding();
    const query = 'when is the db snapshotted?';
    const words = await open(path, config(null)).m.recall([{ text: query, weight: 1 }]);
    expect(words).toBeNull(); // words alone find nothing
    const r = await s.m.recall([{ text: query, weight: 1 }]);
    expect(r?.block).toContain('postgres backups run nightly at 2am');
    expect(r?.items.map((i) => i.item.content)).toEqual(['postgres backups run nightly at 2am']);
    expect(server.embeddings.requests.at(-1)!.input).toEqual([query]);
    const plan = await s.m.plan(query);
    const json = planJson(plan, () => false) as { recall: Array<Record<string, unknown>>; meaning: { used: boolean } };
    expect(json.meaning.used).toBe(true);
    const text = formatPlan(plan, { query, isPinned: () => false }).join('\n');
    expect(text).toContain('  meaning (embed-1): fused with the words ranking (RRF, k = 60); 42 of 42 items embedded');
    expect(text).toMatch(
      /#41 \(fact\) postgres backups run nightly at 2am( {2}\(\d+ \w+ old\))? {2}\[words –, meaning #1, fused 0\.0164\]/,
    );
    expect(json.recall).toEqual([
      expect.objectContaining({ id: 41, words_rank: null, meaning_rank: 1, fused: Math.round(1e6 / 61) / 1e6 }),
    ]);
    s.m.close();
  });

  it('small talk recalls nothing by meaning: a message about nothing in particular is as close to every item', async () => {
    const path = store(facts, 40);
    const s = open(path);
    await s.m.ready();
    await s.m.embedding();
    // The filler items and these messages hold no concept word: the server gives them one and the same vector.
    for (const text of ['good morning', 'write a haiku about autumn', 'thanks!'])
      expect(await s.m.recall([{ text, weight: 1 }])).toBeNull();
    expect((await s.m.recall([{ text: 'when is the db snapshotted?', weight: 1 }]))?.items).toHaveLength(1);
    s.m.close();
  });

  it('fuses by reciprocal rank with k = 60: each fused score is Σ 1/(60 + rank), best first', async () => {
    const path = store([...facts, 'release checklist: deploy, then ship the notes', 'deploy logs are kept for a week'], 20);
    const s = open(path);
    await s.m.ready();
    await s.m.embedding();
    const plan = await s.m.plan('deploy rollout');
    const rows = (
      planJson(plan, () => false) as { recall: Array<{ words_rank: number | null; meaning_rank: number | null; fused: number }> }
    ).recall;
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.some((r) => r.words_rank !== null && r.meaning_rank !== null)).toBe(true);
    for (const r of rows) {
      const want = (r.words_rank ? 1 / (60 + r.words_rank) : 0) + (r.meaning_rank ? 1 / (60 + r.meaning_rank) : 0);
      expect(r.fused).toBeCloseTo(want, 6);
    }
    expect(rows.map((r) => r.fused)).toEqual([...rows.map((r) => r.fused)].sort((a, b) => b - a));
    s.m.close();
  });

  it('a message not embedded within the time limit goes out with the words ranking, and the plan says so', async () => {
    const path = store(facts, 10);
    const s = open(path, config({ timeoutMs: 300 }));
    await s.m.ready();
    await s.m.embedding();
    server.embeddings.delayMs = 2000;
    const r = await s.m.recall([{ text: 'postgres backups', weight: 1 }]);
    expect(r?.items.map((i) => i.item.content)).toEqual(['postgres backups run nightly at 2am']);
    expect(r?.meaning).toMatchObject({ used: false, text: expect.stringContaining('did not answer within 300 ms') });
    const plan = await s.m.plan('postgres backups');
    expect(plan.meaning?.text).toMatch(/^words only: .*did not answer within 300 ms/);
    s.m.close();
  });

  it('forgotten items are never recalled by meaning; an edited one is embedded anew', async () => {
    const path = store(facts, 5);
    const s = open(path);
    await s.m.ready();
    await s.m.embedding();
    await s.m.store().forget(6);
    expect(await s.m.recall([{ text: 'when is the db snapshotted', weight: 1 }])).toBeNull();
    server.embeddings.reset();
    await s.m.store().edit(7, 'we release with make ship after review');
    await s.m.embedding();
    expect(server.embeddings.requests.map((r) => r.input)).toEqual([['we release with make ship after review']]);
    s.m.close();
  });
});

describe('hybrid recall: the cache follows the model', () => {
  it('another model embeds everything again and replaces the file; vectors are never mixed', async () => {
    const path = store([], 70);
    const a = open(path);
    await a.m.ready();
    await a.m.embedding();
    a.m.close();
    server.embeddings.reset();
    const b = open(path, config({ model: 'embed-2' }));
    await b.m.ready();
    await b.m.embedding();
    expect(inputs()).toEqual([64, 6]);
    expect(server.embeddings.requests.every((r) => r.model === 'embed-2')).toBe(true);
    const bytes = readFileSync(vectorsPath(path));
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + bytes.readUInt32LE(8))) as { model: string; dim: number };
    expect(header.model).toBe('embed-2');
    expect(bytes.length).toBe(16 + bytes.readUInt32LE(8) + 70 * recordBytes(header.dim));
    b.m.close();
  });

  it('memory.recall.embeddings.dimensions is sent with every request', async () => {
    const path = store(['postgres backups run nightly at 2am'], 3);
    const a = open(path, config({ dimensions: 256 }));
    await a.m.ready();
    await a.m.embedding();
    await a.m.recall([{ text: 'db', weight: 1 }]);
    expect(server.embeddings.requests.map((r) => r.dimensions)).toEqual([256, 256]);
    a.m.close();
  });

  it('a new dimension under the same model name is noticed at the next turn and rebuilds the cache', async () => {
    const path = store(['postgres backups run nightly at 2am'], 20);
    const a = open(path);
    await a.m.ready();
    await a.m.embedding();
    server.embeddings.extraDims = 3;
    server.embeddings.reset();
    const r = await a.m.recall([{ text: 'when is the db snapshotted', weight: 1 }]);
    expect(r).toBeNull();
    await a.m.embedding();
    expect(
      inputs()
        .slice(1)
        .reduce((n, x) => n + x, 0),
    ).toBe(21);
    const again = await a.m.recall([{ text: 'when is the db snapshotted', weight: 1 }]);
    expect(again?.items.map((i) => i.item.id)).toEqual([21]);
    a.m.close();
  });

  it('many forgotten items: the next full pass rewrites the file without their vectors; the rest are still found', async () => {
    const path = store(['postgres backups run nightly at 2am'], 299);
    const a = open(path);
    await a.m.ready();
    await a.m.embedding();
    await a.m.store().forgetMany(Array.from({ length: 250 }, (_, i) => i + 1));
    a.m.close();
    const b = open(path);
    await b.m.ready();
    b.m.index().rebuild();
    await b.m.embedding();
    const bytes = readFileSync(vectorsPath(path));
    const dim = Object.keys(server.embeddings.concepts).length + 1;
    expect(bytes.length).toBe(16 + bytes.readUInt32LE(8) + 50 * recordBytes(dim));
    // In the session that compacted, as in the next one, each item keeps its own vector.
    for (const m of [b.m, open(path).m]) {
      await m.ready();
      await m.embedding();
      const r = await m.recall([{ text: 'when is the db snapshotted', weight: 1 }]);
      expect(r?.items.map((i) => i.item.id)).toEqual([300]);
      m.close();
    }
  });
});

describe('no embeddings configured', () => {
  it('is words-only recall exactly: no request, no vectors file, no meaning in the plan', async () => {
    const path = store(['postgres backups run nightly at 2am'], 10);
    const s = open(path, config(null));
    await s.m.ready();
    s.m.prepareRecall();
    await s.m.embedding();
    const r = await s.m.recall([{ text: 'postgres backups', weight: 1 }]);
    expect(r?.items.map((i) => i.item.id)).toEqual([11]);
    expect(r?.meaning).toBeUndefined();
    expect((await s.m.plan('postgres backups')).meaning).toBeUndefined();
    expect(server.embeddings.requests).toHaveLength(0);
    expect(existsSync(vectorsPath(path))).toBe(false);
    expect(s.notices).toEqual([]);
    s.m.close();
  });
});
