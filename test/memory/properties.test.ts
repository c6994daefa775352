/**
 * Property tests (fast-check) of the memory file semantics against a tiny reference model:
 *
 *   - a random file (items, tombstones, headers, duplicate ids, out-of-order times, tombstones of
 *     unknown ids, broken and torn lines, blank and comment lines, JSON5 and pretty-printed hand
 *     edits, CRLF, a BOM) parses the way the model says: parseLines, MemoryState and loadMemory;
 *   - reading a file in pieces (the store's refresh path, cut at random bytes, also inside a UTF-8
 *     character and with no final newline) gives the same snapshot as one fresh load;
 *   - random add/forget/edit/clear/compact sequences, mixed with other writers' appends and torn
 *     lines, keep the store equal to the model, and ids are never reused, also across compaction;
 *   - isoTime agrees with Date.parse;
 *   - random bytes never make the parser or loadMemory throw, and every unusable line is reported.
 *
 * Runs vary from run to run; a failure prints fast-check's seed and path. To replay one:
 *   AISH_FC_SEED=<seed> AISH_FC_PATH=<path> npx vitest run test/memory/properties.test.ts
 * AISH_FC_RUNS=<factor> multiplies every numRuns (e.g. 20 for a long local hunt).
 */
import fc from 'fast-check';
import JSON5 from 'json5';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyUid, uidOf } from '../../src/memory/log/identity';
import { isoTime, parseLines } from '../../src/memory/log/parse';
import { MemoryState } from '../../src/memory/log/state';
import { loadMemory, MemoryStore, type MemorySnapshot } from '../../src/memory/store';
import type { MemoryItem, MemoryKind, Tombstone } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

// ---------------------------------------------------------------------------------------------
// fast-check settings
// ---------------------------------------------------------------------------------------------

const RUNS_FACTOR = Number(process.env.AISH_FC_RUNS ?? 1) || 1;
function params<T>(numRuns: number): fc.Parameters<T> {
  const seed = process.env.AISH_FC_SEED;
  const path = process.env.AISH_FC_PATH;
  return {
    numRuns: Math.max(1, Math.round(numRuns * RUNS_FACTOR)),
    ...(seed !== undefined && { seed: Number(seed) }),
    ...(path !== undefined && { path }),
  };
}

// The json5 library console.warns about raw U+2028/U+2029 in strings while parsing (hand-edited
// lines go through JSON5); the generated contents include them on purpose. Keep the output clean.
beforeAll(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------
// The reference model: what a memory file means, written as plainly as possible
// ---------------------------------------------------------------------------------------------

/** One unit of a generated file, with what it is supposed to mean. */
type Entry =
  | { t: 'item'; rec: MemoryItem & Record<string, unknown>; style: Style }
  | { t: 'tomb'; rec: Tombstone; style: Style }
  | { t: 'header'; text: string; maxId?: number }
  /** A line that cannot be used; `reserved` is the id it still shows; `parses` if it is JSON. */
  | { t: 'bad'; text: string; reserved?: number; parses: boolean }
  | { t: 'blank'; text: string };

type Style = 'json' | 'json5' | 'json5comma' | 'indent' | 'crlf' | 'pretty';

interface ModelView {
  /** Active items, newest first (ts descending, then id descending). */
  active: MemoryItem[];
  maxId: number;
  /** Line numbers of everything skipped: broken lines and duplicate ids, in file order. */
  skipped: number[];
  /** What parseLines should return, entry by entry: [type, line, endLine?]. */
  parsed: Array<[string, number, number | undefined]>;
}

const time = (ts: string) => Date.parse(ts);
function newestFirst(a: MemoryItem, b: MemoryItem): number {
  return time(b.ts) - time(a.ts) || b.id - a.id;
}

function renderEntry(e: Entry): string[] {
  switch (e.t) {
    case 'header':
    case 'bad':
    case 'blank':
      return [e.text];
    case 'item':
    case 'tomb': {
      const rec = e.rec as unknown as Record<string, unknown>;
      switch (e.style) {
        case 'json':
          return [JSON.stringify(rec)];
        case 'json5':
          return [JSON5.stringify(rec, { quote: "'" })];
        case 'json5comma':
          return [JSON5.stringify(rec).replace(/\}$/, ',}')];
        case 'indent':
          return [`  ${JSON.stringify(rec)}  `];
        case 'crlf':
          return [`${JSON.stringify(rec)}\r`];
        case 'pretty':
          return JSON.stringify(rec, null, 2).split('\n');
      }
    }
  }
}

function renderFile(entries: Entry[], finalNewline: boolean, bom: boolean): string {
  const lines = entries.flatMap(renderEntry);
  return (bom ? '\ufeff' : '') + lines.join('\n') + (finalNewline && lines.length ? '\n' : '');
}

/** The model: first use of an id wins, tombstones forget in any order, maxId sees everything. */
function model(entries: Entry[]): ModelView {
  const claimed = new Set<number>();
  const firstOf = new Map<string, Tombstone>();
  const items: MemoryItem[] = [];
  const forgotten = new Set<number>();
  const skipped: number[] = [];
  const parsed: ModelView['parsed'] = [];
  let maxId = 0;
  let line = 1;
  for (const e of entries) {
    const n = renderEntry(e).length;
    const end = n > 1 ? line + n - 1 : undefined;
    switch (e.t) {
      case 'item':
      case 'tomb': {
        parsed.push([e.t === 'item' ? 'item' : 'forget', line, end]);
        const id = e.rec.id;
        maxId = Math.max(maxId, id);
        if (claimed.has(id)) {
          skipped.push(line);
          break;
        }
        claimed.add(id);
        // A record that says what an earlier one says (no uid of its own: the same derived uid) is a
        // copy: kept, reported, and given a uid of its own made from the first's.
        const rec = e.rec as Tombstone & { content?: string; scope?: string };
        const key = JSON.stringify([rec.kind, rec.ts, rec.content ?? null, rec.scope ?? null, rec.target ?? null]);
        const first = e.t === 'item' ? firstOf.get(key) : undefined; // copies of uid-less tombstones mean the same
        // …unless the first is forgotten above it: the forgotten item pasted back keeps its uid, unreported.
        const copy = first && !forgotten.has(first.id) ? { ...rec, uid: copyUid(rec, uidOf(first)) } : undefined;
        if (first === undefined) firstOf.set(key, rec);
        else if (copy) skipped.push(line);
        if (e.t === 'item') items.push((copy ?? e.rec) as MemoryItem);
        else {
          forgotten.add(e.rec.target);
          // A tombstone's target is reserved too: the next add must not be born forgotten.
          maxId = Math.max(maxId, e.rec.target);
        }
        break;
      }
      case 'header':
        parsed.push(['header', line, undefined]);
        if (e.maxId !== undefined) maxId = Math.max(maxId, e.maxId);
        break;
      case 'bad':
        parsed.push(['bad', line, undefined]);
        skipped.push(line);
        if (e.reserved !== undefined) maxId = Math.max(maxId, e.reserved);
        break;
      case 'blank':
        break;
    }
    line += n;
  }
  return { active: items.filter((i) => !forgotten.has(i.id)).sort(newestFirst), maxId, skipped, parsed };
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const T0 = Date.parse('2026-01-01T00:00:00Z');
const KINDS: readonly MemoryKind[] = ['fact', 'pref', 'context'];

const idArb = fc.integer({ min: 1, max: 40 });
const kindArb = fc.constantFrom(...KINDS);

/** Valid times, in the forms a hand edit may use; few distinct seconds, so ties are common. */
const tsArb = fc.oneof(
  fc.integer({ min: 0, max: 30 }).map((s) => new Date(T0 + s * 1000).toISOString()),
  fc.integer({ min: 0, max: 30 }).map((s) => new Date(T0 + s * 1000).toISOString().replace(/\.000Z$/, 'Z')),
  fc.integer({ min: 0, max: 10 ** 9 }).map((ms) => new Date(T0 + ms).toISOString()),
  fc.integer({ min: 0, max: 30 }).map((s) => new Date(T0 + s * 1000 + 7_200_000).toISOString().replace(/\.\d{3}Z$/, '+02:00')),
  fc.constantFrom('2026-01-01', '2025-12-31T23:59:59.5Z', '1999-01-01T00:00:00Z'),
);
const badTsArb = fc.constantFrom<unknown>('yesterday', '', '2026-13-01T00:00:00Z', '2026-01-01T25:00:00Z', 1_767_225_600_000, null);

/** Non-blank text (content that trims to nothing is invalid, and tested separately). */
const contentArb = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    fc.constantFrom(
      'é 漢字 😀 👩‍💻',
      'line\nbreak',
      'tab\t"quotes" \\ back',
      '\u2028\u2029x',
      'a}',
      "it's",
      '// not a comment',
      '# nor this',
      '{"id":99}',
      '\u0000nul',
    ),
  )
  .filter((s) => s.trim() !== '');

const tagsArb = fc.option(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }), { nil: undefined });
const styleArb = fc.constantFrom<Style>('json', 'json', 'json', 'json', 'json5', 'json5comma', 'indent', 'crlf', 'pretty');

const itemRecArb = fc
  .record({
    id: idArb,
    ts: tsArb,
    kind: kindArb,
    content: contentArb,
    tags: tagsArb,
    source: fc.option(fc.constantFrom('session:abc', 'hand'), { nil: undefined }),
    extra: fc.option(fc.constantFrom({ note: 'kept as is' }, { pinned: true }), { nil: undefined }),
  })
  .map(({ id, ts, kind, content, tags, source, extra }) => ({
    id,
    ts,
    kind,
    content,
    ...(tags !== undefined && { tags }),
    ...(source !== undefined && { source }),
    ...extra,
  }));

const itemArb: fc.Arbitrary<Entry> = fc.record({ rec: itemRecArb, style: styleArb }).map(({ rec, style }) => ({ t: 'item', rec, style }));

const tombArb: fc.Arbitrary<Entry> = fc
  .record({ id: idArb, ts: tsArb, target: fc.integer({ min: 1, max: 45 }), style: styleArb })
  .map(({ id, ts, target, style }) => ({ t: 'tomb', rec: { id, ts, kind: 'forget', target }, style }));

const headerArb: fc.Arbitrary<Entry> = fc.oneof(
  fc
    .integer({ min: 1, max: 60 })
    .map((maxId): Entry => ({ t: 'header', maxId, text: JSON.stringify({ meta: { format: 'aish-memory', version: 1, maxId } }) })),
  fc.constant<Entry>({ t: 'header', text: '{"meta":{"format":"aish-memory","version":1,"created":"2026-01-01T00:00:00.000Z"}}' }),
  fc.constantFrom<unknown>('x', -1, 1.5, 0).map((maxId): Entry => ({ t: 'header', text: JSON.stringify({ meta: { maxId } }) })),
);

/** The id a broken line still shows at its start: `{"id":123…`, `{ 'id': 123…`, `{id:123…`. */
function visibleId(text: string): number | undefined {
  const m = /^\{\s*["']?id["']?\s*:\s*(\d{1,15})(?![\d\w])/.exec(text.trim());
  const id = m ? Number(m[1]) : NaN;
  return id >= 1 ? id : undefined;
}

/** A record cut short, as a crash leaves it (never the whole line; never right after a backslash). */
const tornArb: fc.Arbitrary<Entry> = fc.record({ rec: itemRecArb, at: fc.nat() }).map(({ rec, at }) => {
  const full = JSON.stringify(rec);
  let text = full.slice(0, 1 + (at % (full.length - 1)));
  while (text.endsWith('\\')) text = text.slice(0, -1);
  return { t: 'bad', text, parses: false, ...(visibleId(text) !== undefined && { reserved: visibleId(text)! }) };
});

/** Not JSON at all (none of these can complete a broken line above them). */
const garbageArb: fc.Arbitrary<Entry> = fc
  .constantFrom('not json', 'true false', '[1, 2', ']', 'ü\u0001\u0002', "{'id': 3, oops", '{"id":', '{{', 'id: 4')
  .map((text) => ({ t: 'bad', text, parses: false, ...(visibleId(text) !== undefined && { reserved: visibleId(text)! }) }));

/** JSON (or JSON5) that is not a usable record; an id it shows stays reserved. */
const invalidRecordArb: fc.Arbitrary<Entry> = fc
  .record({ id: idArb, ts: tsArb, which: fc.nat({ max: 15 }) })
  .map(({ id, ts, which }): Entry => {
    const base = { id, ts, kind: 'fact', content: 'x' };
    const cases: Array<[string, number | undefined]> = [
      [JSON.stringify({ ...base, kind: 'note' }), id],
      [JSON.stringify({ ...base, content: '' }), id],
      [JSON.stringify({ ...base, content: ' \t\n' }), id],
      [JSON.stringify({ ...base, content: 42 }), id],
      [JSON.stringify({ ...base, tags: 'a,b' }), id],
      [JSON.stringify({ ...base, tags: [1] }), id],
      [JSON.stringify({ ...base, source: 7 }), id],
      [JSON.stringify({ id, ts, kind: 'forget' }), id],
      [JSON.stringify({ id, ts, kind: 'forget', target: 0 }), id],
      [JSON.stringify({ ...base, id: 0 }), undefined],
      [JSON.stringify({ ...base, id: 2.5 }), undefined],
      [JSON.stringify({ ...base, id: String(id) }), undefined],
      [JSON.stringify({ ts, kind: 'fact', content: 'no id' }), undefined],
      [`{id: 0x${id.toString(16)}, ts: '${ts}', kind: 'fact', content: 'hex id'}`, id],
      [`{id: ${id}, ts: '${ts}', kind: 'forget', target: NaN}`, id],
      [['[1, 2]', 'null', '"text"', '42'][id % 4]!, undefined],
    ];
    const [text, reserved] = cases[which]!;
    return { t: 'bad', text, parses: true, ...(reserved !== undefined && { reserved }) };
  });

const badTimeArb: fc.Arbitrary<Entry> = fc
  .record({ id: idArb, ts: badTsArb })
  .map(({ id, ts }) => ({ t: 'bad', text: JSON.stringify({ id, ts, kind: 'fact', content: 'bad time' }), parses: true, reserved: id }));

const blankArb: fc.Arbitrary<Entry> = fc
  .constantFrom('', '   ', '\t', '// a comment', '# a comment', '  // indented comment')
  .map((text) => ({ t: 'blank', text }));

const entryArb: fc.Arbitrary<Entry> = fc.oneof(
  { arbitrary: itemArb, weight: 10 },
  { arbitrary: tombArb, weight: 4 },
  { arbitrary: headerArb, weight: 1 },
  { arbitrary: tornArb, weight: 2 },
  { arbitrary: garbageArb, weight: 1 },
  { arbitrary: invalidRecordArb, weight: 2 },
  { arbitrary: badTimeArb, weight: 1 },
  { arbitrary: blankArb, weight: 2 },
);

interface FileCase {
  entries: Entry[];
  finalNewline: boolean;
  bom: boolean;
}

/**
 * `knownBugFree`: no pretty-printed object as the very last thing of a file without a final
 * newline (that case has its own test below).
 */
function fileArb(opts: { maxEntries?: number; knownBugFree?: boolean; pretty?: boolean } = {}): fc.Arbitrary<FileCase> {
  return fc
    .record({
      entries: fc.array(entryArb, { maxLength: opts.maxEntries ?? 30 }),
      finalNewline: fc.boolean(),
      bom: fc.constantFrom(false, false, false, true),
    })
    .map((f) => {
      let entries = f.entries;
      if (opts.pretty === false)
        entries = entries.map((e) => ((e.t === 'item' || e.t === 'tomb') && e.style === 'pretty' ? { ...e, style: 'json' } : e));
      const last = entries[entries.length - 1];
      if (opts.knownBugFree && !f.finalNewline && last && (last.t === 'item' || last.t === 'tomb') && last.style === 'pretty') {
        entries = [...entries.slice(0, -1), { ...last, style: 'json' }];
      }
      return { ...f, entries };
    });
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function runDir(base: string): string {
  return mkdtempSync(join(base, 'r-'));
}

/** The line numbers that carry nothing: blank and comment lines. */
function isBlankLine(raw: string): boolean {
  const t = raw.trim();
  return t === '' || t.startsWith('//') || t.startsWith('#');
}

function expectMatchesModel(snap: MemorySnapshot, m: ModelView, text: string, finalNewline: boolean): void {
  expect(snap.items.map((i) => i.id)).toEqual(m.active.map((i) => i.id));
  expect(snap.items).toEqual(m.active);
  expect(snap.maxId).toBe(m.maxId);
  expect(snap.skipped.map((s) => s.line)).toEqual(m.skipped);
  const lines = text.split('\n');
  if (finalNewline && text.endsWith('\n')) lines.pop();
  for (const s of snap.skipped) {
    const isLast = s.line === lines.length && !text.endsWith('\n');
    // only an unfinished last line that does not parse is called a torn write
    if (/incomplete last line/.test(s.reason)) expect(isLast, `line ${s.line}: ${s.reason}`).toBe(true);
    expect(s.reason).not.toMatch(/[\u0000-\u001f\u007f]/);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Parsing a whole file agrees with the model
// ---------------------------------------------------------------------------------------------

describe('a memory file means what the model says', () => {
  it('parseLines classifies every entry (type, line, span, reserved id)', () => {
    fc.assert(
      fc.property(fileArb(), ({ entries, finalNewline, bom }) => {
        const text = renderFile(entries, finalNewline, bom);
        const m = model(entries);
        const got = parseLines(text, 1, text.endsWith('\n'));
        expect(got.map((e) => [e.type, e.line, e.endLine])).toEqual(m.parsed);
        // the records themselves, exactly as written (unknown fields kept)
        const recs = entries.filter((e) => e.t === 'item' || e.t === 'tomb').map((e) => (e as { rec: unknown }).rec);
        expect(got.flatMap((e): unknown[] => (e.type === 'item' ? [e.item] : e.type === 'forget' ? [e.tomb] : []))).toEqual(recs);
        // ids shown by broken lines are reserved
        const bad = entries.filter((e): e is Extract<Entry, { t: 'bad' }> => e.t === 'bad');
        expect(got.flatMap((e) => (e.type === 'bad' ? [e.reservedId] : []))).toEqual(bad.map((b) => b.reserved));
        const headers = entries.filter((e): e is Extract<Entry, { t: 'header' }> => e.t === 'header');
        expect(got.flatMap((e) => (e.type === 'header' ? [e.maxId] : []))).toEqual(headers.map((h) => h.maxId));
      }),
      params(600),
    );
  });

  it("MemoryState (complete lines) gives the model's active items, order, maxId and skipped lines", () => {
    fc.assert(
      fc.property(fileArb(), ({ entries, bom }) => {
        const text = renderFile(entries, true, bom);
        const s = new MemoryState();
        // The store's protocol: an object still open at the end is held back and read with the rest.
        const held = s.ingest(text, 1);
        if (held !== null) s.ingestProvisional(text.slice(held), text.slice(0, held).split('\n').length, true);
        const m = model(entries);
        expectMatchesModel({ items: s.active(), skipped: [...s.skipped], maxId: s.maxId }, m, text, true);
        // get/isActive agree with active()
        for (const it of m.active) expect(s.get(it.id)).toEqual(it);
        for (let id = 1; id <= 45; id++) expect(s.isActive(id)).toBe(m.active.some((i) => i.id === id));
      }),
      params(600),
    );
  });

  it('loadMemory on a real file agrees with the model (with or without a final newline)', () => {
    const base = tmpDir();
    fc.assert(
      fc.property(fileArb({ knownBugFree: true }), ({ entries, finalNewline, bom }) => {
        const dir = runDir(base);
        try {
          const text = renderFile(entries, finalNewline, bom);
          const path = join(dir, 'memory.jsonl');
          writeFileSync(path, text);
          expectMatchesModel(loadMemory(path), model(entries), text, finalNewline);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      params(400),
    );
  });

  // A pretty-printed object at the very end of a file without a final newline (most editors'
  // default) must load as one item, as parseLines reads the same text, and reserve its id: the
  // complete lines and the unfinished last line are read together, not the last line alone.
  it('a pretty-printed last item without a final newline loads, and its id is reserved', () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    const text =
      '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"one"}\n' +
      JSON.stringify({ id: 2, ts: '2026-01-02T00:00:00Z', kind: 'fact', content: 'pretty, no final newline' }, null, 2);
    writeFileSync(path, text);
    expect(parseLines(text, 1, false).map((e) => e.type)).toEqual(['item', 'item']); // the parser is fine
    const m = loadMemory(path);
    expect(m.skipped).toEqual([]);
    expect(m.items.map((i) => i.id)).toEqual([2, 1]);
    expect(m.maxId).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Reading in pieces equals reading at once
// ---------------------------------------------------------------------------------------------

describe("incremental reading (the store's refresh path) equals a fresh full read", () => {
  /** Byte offsets to cut at: anywhere, and always one inside a multi-byte UTF-8 character if there is one. */
  function cutsArb(bytes: Buffer): fc.Arbitrary<number[]> {
    const inside: number[] = [];
    for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) === 0x80) inside.push(i);
    const anywhere = fc.integer({ min: 0, max: bytes.length });
    const mid = inside.length ? fc.constantFrom(...inside) : anywhere;
    return fc.tuple(fc.array(anywhere, { maxLength: 4 }), mid).map(([cuts, m]) => [...new Set([...cuts, m])].sort((a, b) => a - b));
  }

  const caseArb = fileArb({ pretty: false, maxEntries: 25 })
    .map((f) => ({ ...f, bytes: Buffer.from(renderFile(f.entries, f.finalNewline, f.bom), 'utf8') }))
    .chain((f) => cutsArb(f.bytes).map((cuts) => ({ ...f, cuts })));

  it('write part, open, append the rest piece by piece, reload: same snapshot as loadMemory', () => {
    const base = tmpDir();
    fc.assert(
      fc.property(caseArb, ({ entries, finalNewline, bytes, cuts }) => {
        const dir = runDir(base);
        try {
          const path = join(dir, 'memory.jsonl');
          writeFileSync(path, bytes.subarray(0, cuts[0]));
          const store = MemoryStore.open(path);
          let at = cuts[0]!;
          for (const c of [...cuts.slice(1), bytes.length]) {
            appendFileSync(path, bytes.subarray(at, c));
            at = c;
            store.reload();
          }
          const incremental = store.snapshot();
          const fresh = loadMemory(path);
          expect(incremental).toEqual(fresh);
          expectMatchesModel(fresh, model(entries), bytes.toString('utf8'), finalNewline);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      params(400),
    );
  });

  it('a cut inside a 4-byte character and a last line without newline', () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    const text =
      '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"a 😀 b"}\n{"id":2,"ts":"2026-01-02T00:00:00Z","kind":"pref","content":"漢字"}';
    const bytes = Buffer.from(text, 'utf8');
    const emoji = bytes.indexOf(Buffer.from('😀', 'utf8'));
    const kanji = bytes.indexOf(Buffer.from('漢', 'utf8'));
    writeFileSync(path, bytes.subarray(0, emoji + 2)); // half an emoji, no newline
    const store = MemoryStore.open(path);
    expect(store.skipped.map((s) => s.reason)).toEqual(['incomplete last line (an interrupted write?)']);
    appendFileSync(path, bytes.subarray(emoji + 2, kanji + 1)); // line 1 done, half a 漢
    expect(store.reload().items.map((i) => i.id)).toEqual([1]);
    appendFileSync(path, bytes.subarray(kanji + 1));
    const snap = store.reload();
    expect(snap).toEqual(loadMemory(path));
    expect(snap.items.map((i) => i.content)).toEqual(['漢字', 'a 😀 b']);
    expect(snap.skipped).toEqual([]);
  });

  // A hand-appended pretty-printed object that a long-running store reads half of (its first lines
  // complete, the rest later) must load once complete, not stay broken lines: otherwise its id is
  // not reserved, the session hands it out again, and the acknowledged add loses to the hand edit
  // (first use of an id wins) on every fresh load.
  it('a pretty-printed object read in two pieces loads like a fresh read; the next add keeps its own id', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    const pretty = JSON.stringify({ id: 2, ts: '2026-01-02T00:00:00Z', kind: 'fact', content: 'hand-appended' }, null, 2) + '\n';
    writeFileSync(path, '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"one"}\n' + pretty.slice(0, 20));
    const store = MemoryStore.open(path);
    appendFileSync(path, pretty.slice(20));
    expect(store.reload()).toEqual(loadMemory(path));
    const added = await store.add('fact', 'acknowledged');
    expect(loadMemory(path).items.map((i) => i.id)).toContain(added.id);
    expect(loadMemory(path).skipped).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Store operations against the model
// ---------------------------------------------------------------------------------------------

type FileLine =
  | { k: 'header'; maxId?: number }
  | { k: 'item'; item: MemoryItem }
  | { k: 'tomb'; tomb: Tombstone }
  | { k: 'bad'; raw: string; reserved?: number };

/** The file as a list of records, and the rules for what each operation appends or rewrites. */
class StoreModel {
  lines: FileLine[] = [];
  /** False while the last line is a torn write with no newline yet. */
  endsWithNewline = true;
  rejected: string[] = [];

  view() {
    const claimed = new Map<number, number>();
    const items: MemoryItem[] = [];
    const allItems = new Map<number, MemoryItem>();
    const forgotten = new Set<number>();
    const skipped: Array<{ line: number; kind: 'bad' | 'dup' | 'torn' | 'copy' }> = [];
    /** The first item of each uid (its own, else the one derived from its fields): a later one is a copy (uid-copies.ts). */
    const firstOf = new Map<string, MemoryItem>();
    let maxId = 0;
    let tombs = 0;
    this.lines.forEach((l, i) => {
      const line = i + 1;
      if (l.k === 'header') maxId = Math.max(maxId, l.maxId ?? 0);
      else if (l.k === 'bad') {
        const torn = i === this.lines.length - 1 && !this.endsWithNewline;
        skipped.push({ line, kind: torn ? 'torn' : 'bad' });
        maxId = Math.max(maxId, l.reserved ?? 0);
      } else {
        const id = l.k === 'item' ? l.item.id : l.tomb.id;
        maxId = Math.max(maxId, id);
        if (claimed.has(id)) {
          skipped.push({ line, kind: 'dup' });
          return;
        }
        claimed.set(id, line);
        if (l.k === 'item') {
          const own = (l.item as { uid?: unknown }).uid;
          const key =
            typeof own === 'string' && own !== ''
              ? `u${own}`
              : `d${JSON.stringify([l.item.kind, l.item.ts, l.item.content, l.item.scope ?? null])}`;
          const first = firstOf.get(key);
          let item = l.item;
          if (!first) firstOf.set(key, l.item);
          else if (!forgotten.has(first.id)) {
            // A copy of an active item: kept under a uid of its own, and reported.
            const { id: _id, uid: _repeated, ...rest } = l.item as MemoryItem & { uid?: unknown };
            item = { id, uid: copyUid(l.item, uidOf(first)), ...rest };
            skipped.push({ line, kind: 'copy' });
          }
          items.push(item);
          allItems.set(id, item);
        } else {
          forgotten.add(l.tomb.target);
          maxId = Math.max(maxId, l.tomb.target);
          tombs++;
        }
      }
    });
    const active = items.filter((i) => !forgotten.has(i.id)).sort(newestFirst);
    const dead = items.filter((i) => forgotten.has(i.id)).length + tombs;
    return { active, maxId, skipped, allItems, forgotten, dead };
  }

  /** What the store does for a write: a header on an empty file, a fresh line after a torn one. */
  append(recs: FileLine[]): void {
    if (this.lines.length === 0) this.lines.push({ k: 'header' });
    this.lines.push(...recs);
    this.endsWithNewline = true;
  }
}

type StoreOp =
  | { op: 'add'; kind: MemoryKind; content: string; tags?: string[] }
  | { op: 'forget'; pick: number }
  | { op: 'edit'; pick: number; content: string }
  | { op: 'clear' }
  | { op: 'compact' }
  /** Another writer (or a hand edit) appends an item, possibly with an old time. */
  | { op: 'extAdd'; content: string; ts: string }
  | { op: 'extForget'; pick: number }
  /** A writer that crashed mid-append: the start of a line, no newline. */
  | { op: 'extTorn'; content: string; at: number }
  /** A hand edit that reuses an id. */
  | { op: 'extDup'; pick: number; content: string }
  /** An editor saving in place (same inode): a line deleted, or an item's text made longer. */
  | { op: 'handEdit'; pick: number; how: 'drop' | 'grow' }
  /** A new store on the same file (a new session). */
  | { op: 'reopen' };

const storeOpArb: fc.Arbitrary<StoreOp> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({
        op: fc.constant('add' as const),
        kind: kindArb,
        content: contentArb,
        tags: fc.option(fc.array(fc.constantFrom('a', 'b', 'ü'), { maxLength: 2 }), { nil: undefined }),
      })
      .map((o) => (o.tags === undefined ? { op: o.op, kind: o.kind, content: o.content } : o)),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('forget' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), content: contentArb }) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
  { weight: 2, arbitrary: fc.constant({ op: 'compact' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('extAdd' as const), content: contentArb, ts: tsArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('extForget' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('extTorn' as const), content: contentArb, at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('extDup' as const), pick: fc.nat(), content: contentArb }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('handEdit' as const), pick: fc.nat(), how: fc.constantFrom('drop' as const, 'grow' as const) }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'reopen' as const }) },
);

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const HLC_RE = /^\d{13}-\d{4}$/;

describe('store operations against the model', () => {
  it('random add/forget/edit/clear/compact (with other writers, torn lines, reopen) keep the store equal to the model; ids are never reused', async () => {
    const base = tmpDir();
    await fc.assert(
      fc.asyncProperty(fc.array(storeOpArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const dir = runDir(base);
        try {
          const path = join(dir, 'memory.jsonl');
          // one tick per operation: everything an operation writes carries the same time
          let clock = Date.parse('2026-05-13T19:00:00Z');
          const now = () => new Date(clock);
          let store = MemoryStore.open(path, { now });
          const m = new StoreModel();
          let highestSeen = 0;
          /** Every id a write hands out must be above every id seen before it. */
          const fresh = (id: number) => {
            expect(id, `id ${id} reused (highest seen ${highestSeen})`).toBeGreaterThan(highestSeen);
            highestSeen = id;
          };
          const pickId = (pick: number) => {
            const v = m.view();
            const known = [...v.allItems.keys(), ...m.lines.flatMap((l) => (l.k === 'tomb' ? [l.tomb.id] : []))];
            return pick % (known.length + 2) < known.length ? known[pick % (known.length + 2)]! : v.maxId + 1 + (pick % 3);
          };
          const appendRaw = (text: string) => appendFileSync(path, (m.endsWithNewline ? '' : '\n') + text);
          /** The last `expected.length` records in the file: exactly those, each with a fresh uid and hlc. */
          const written = <T extends object>(expected: T[]): T[] => {
            const recs = readFileSync(path, 'utf8')
              .trimEnd()
              .split('\n')
              .slice(-expected.length)
              .map((l) => JSON.parse(l) as T);
            expect(recs).toEqual(expected.map((e) => ({ ...e, uid: expect.stringMatching(ULID_RE), hlc: expect.stringMatching(HLC_RE) })));
            return recs;
          };

          for (const op of ops) {
            clock += 1000;
            const before = m.view();
            switch (op.op) {
              case 'add': {
                const it = await store.add(op.kind, op.content, op.tags ? { tags: op.tags } : {});
                const expected: MemoryItem = {
                  id: before.maxId + 1,
                  ts: new Date(clock).toISOString(),
                  kind: op.kind,
                  content: op.content,
                  ...(op.tags && op.tags.length > 0 ? { tags: op.tags } : {}),
                };
                const [line] = written([expected]);
                expect(it).toEqual(line);
                fresh(it.id);
                m.append([{ k: 'item', item: line! }]);
                break;
              }
              case 'forget': {
                const id = pickId(op.pick);
                const r = await store.forget(id);
                const active = before.active.find((i) => i.id === id);
                if (active) {
                  const [tomb] = written<Tombstone>([
                    { id: before.maxId + 1, ts: new Date(clock).toISOString(), kind: 'forget', target: id, target_uid: uidOf(active) },
                  ]);
                  expect(r).toEqual({ ok: true, tombstone: tomb, item: active });
                  fresh(tomb!.id);
                  m.append([{ k: 'tomb', tomb: tomb! }]);
                } else {
                  expect(r).toEqual({ ok: false, id, reason: before.allItems.has(id) ? 'already-forgotten' : 'unknown' });
                }
                break;
              }
              case 'edit': {
                const id = pickId(op.pick);
                const r = await store.edit(id, op.content);
                const old = before.active.find((i) => i.id === id);
                if (old) {
                  const ts = new Date(clock).toISOString();
                  const [item, tomb] = written<MemoryItem | Tombstone>([
                    {
                      id: before.maxId + 1,
                      ts,
                      kind: old.kind,
                      content: op.content,
                      ...(old.tags && old.tags.length > 0 ? { tags: old.tags } : {}),
                      ...(old.source ? { source: old.source } : {}),
                      replaces: uidOf(old),
                    },
                    { id: before.maxId + 2, ts, kind: 'forget', target: id, target_uid: uidOf(old) },
                  ]) as [MemoryItem, Tombstone];
                  expect(r).toEqual({ ok: true, item, replaced: old });
                  fresh(item.id);
                  fresh(item.id + 1);
                  m.append([
                    { k: 'item', item },
                    { k: 'tomb', tomb },
                  ]);
                } else {
                  expect(r).toEqual({ ok: false, id, reason: before.allItems.has(id) ? 'already-forgotten' : 'unknown' });
                }
                break;
              }
              case 'clear': {
                const gone = await store.clear();
                expect(gone).toEqual(before.active);
                const ts = new Date(clock).toISOString();
                const expectedTombs = before.active.map((it, i): Tombstone => ({
                  id: before.maxId + 1 + i,
                  ts,
                  kind: 'forget',
                  target: it.id,
                  target_uid: uidOf(it),
                }));
                const tombs = (expectedTombs.length ? written(expectedTombs) : []).map((tomb): FileLine => ({ k: 'tomb', tomb }));
                for (const t of tombs) if (t.k === 'tomb') fresh(t.tomb.id);
                if (tombs.length) m.append(tombs);
                break;
              }
              case 'compact': {
                const r = await store.compact();
                const bad = m.lines.filter((l): l is Extract<FileLine, { k: 'bad' }> => l.k === 'bad');
                expect(r).toMatchObject({ kept: before.active.length, removed: before.dead, maxId: before.maxId });
                // broken lines and duplicate-id lines are set aside, in file order
                const dupLines = new Set(before.skipped.filter((x) => x.kind === 'dup').map((x) => x.line));
                const setAside = m.lines.flatMap((l, i) =>
                  l.k === 'bad'
                    ? [l.raw]
                    : dupLines.has(i + 1) && l.k === 'item'
                      ? [JSON.stringify(l.item)]
                      : dupLines.has(i + 1) && l.k === 'tomb'
                        ? [JSON.stringify(l.tomb)]
                        : [],
                );
                expect(r.rejected).toBe(setAside.length);
                void bad;
                m.rejected.push(...setAside);
                m.lines = [
                  { k: 'header', maxId: before.maxId },
                  ...[...before.active].sort((a, b) => a.id - b.id).map((item): FileLine => ({ k: 'item', item })),
                ];
                m.endsWithNewline = true;
                // the rewritten file is exactly the header and the active items, in id order
                const lines = readFileSync(path, 'utf8').split('\n');
                expect(lines.pop()).toBe('');
                expect((JSON.parse(lines[0]!) as { meta: { maxId: number } }).meta.maxId).toBe(before.maxId);
                expect(lines.slice(1).map((l) => JSON.parse(l) as unknown)).toEqual(
                  m.lines.slice(1).map((l) => (l as { item: MemoryItem }).item),
                );
                break;
              }
              case 'extAdd': {
                const item: MemoryItem = { id: before.maxId + 1, ts: op.ts, kind: 'fact', content: op.content };
                appendRaw(JSON.stringify(item) + '\n');
                fresh(item.id);
                m.lines.push({ k: 'item', item });
                m.endsWithNewline = true;
                break;
              }
              case 'extForget': {
                const tomb: Tombstone = {
                  id: before.maxId + 1,
                  ts: new Date(clock).toISOString(),
                  kind: 'forget',
                  target: pickId(op.pick),
                };
                appendRaw(JSON.stringify(tomb) + '\n');
                fresh(tomb.id);
                m.lines.push({ k: 'tomb', tomb });
                m.endsWithNewline = true;
                break;
              }
              case 'extTorn': {
                const full = JSON.stringify({ id: before.maxId + 1, ts: new Date(clock).toISOString(), kind: 'fact', content: op.content });
                // as bytes on disk: a cut between two halves of a surrogate pair is written as U+FFFD
                const raw = Buffer.from(full.slice(0, 1 + (op.at % (full.length - 1))).replace(/\\+$/, ''), 'utf8').toString('utf8');
                if (!raw) break;
                appendRaw(raw);
                const reserved = visibleId(raw);
                m.lines.push({ k: 'bad', raw, ...(reserved !== undefined && { reserved }) });
                m.endsWithNewline = false;
                if (reserved !== undefined) highestSeen = Math.max(highestSeen, reserved);
                break;
              }
              case 'extDup': {
                const ids = [...before.allItems.keys()];
                if (!ids.length) break;
                const item: MemoryItem = {
                  id: ids[op.pick % ids.length]!,
                  ts: new Date(clock).toISOString(),
                  kind: 'pref',
                  content: op.content,
                };
                appendRaw(JSON.stringify(item) + '\n');
                m.lines.push({ k: 'item', item });
                m.endsWithNewline = true;
                break;
              }
              case 'handEdit': {
                if (!existsSync(path)) break;
                const text = readFileSync(path, 'utf8');
                const lines = text === '' ? [] : text.split('\n');
                if (text.endsWith('\n')) lines.pop();
                expect(lines.length).toBe(m.lines.length); // one record per line
                // never the header: deleting it by hand gives up the ids it reserved
                const choices = m.lines.flatMap((l, i) => (l.k === 'header' ? [] : [i]));
                if (!choices.length) break;
                const i = choices[op.pick % choices.length]!;
                const line = m.lines[i]!;
                if (op.how === 'grow' && line.k === 'item') {
                  const item = { ...line.item, content: `${line.item.content} (edited)` };
                  lines[i] = JSON.stringify(item);
                  m.lines[i] = { k: 'item', item };
                } else {
                  const wasLast = i === lines.length - 1;
                  lines.splice(i, 1);
                  m.lines.splice(i, 1);
                  if (wasLast) m.endsWithNewline = true;
                  // a line deleted by hand may lower the highest id: that is the editor's doing
                  highestSeen = m.view().maxId;
                }
                writeFileSync(path, lines.length ? lines.join('\n') + (m.endsWithNewline ? '\n' : '') : ''); // in place: same inode
                break;
              }
              case 'reopen':
                store.close();
                store = MemoryStore.open(path, { now });
                break;
            }

            // after every operation: the store (refreshed incrementally), a fresh load and the model agree
            const v = m.view();
            const snap = store.reload();
            expect(snap.items).toEqual(v.active);
            expect(snap.maxId).toBe(v.maxId);
            expect(snap.skipped.map((s) => s.line)).toEqual(v.skipped.map((s) => s.line));
            snap.skipped.forEach((s, i) => {
              const kind = v.skipped[i]!.kind;
              expect(s.reason).toMatch(
                kind === 'dup'
                  ? /^duplicate id/
                  : kind === 'torn'
                    ? /^incomplete last line/
                    : kind === 'copy'
                      ? /^same uid as line/
                      : /^not valid JSON or JSON5/,
              );
            });
            expect(loadMemory(path)).toEqual(snap);
            highestSeen = Math.max(highestSeen, v.maxId);
          }

          // compaction set every broken and duplicate-id line aside, in order
          if (m.rejected.length) {
            const rejected = readFileSync(`${path}.rejected`, 'utf8')
              .split('\n')
              .filter((l) => l && !l.startsWith('// '));
            let at = 0;
            for (const l of rejected) if (l === m.rejected[at]) at++;
            expect(at, `.rejected holds ${JSON.stringify(rejected)}`).toBe(m.rejected.length);
          } else {
            expect(existsSync(`${path}.rejected`)).toBe(false);
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      params(200),
    );
  }, 60_000);

  // A line that cannot be used is never silently dropped (README): compaction moves unreadable lines
  // to memory.jsonl.rejected, and a line skipped as a duplicate id (a hand-added item that reused an
  // id) must be set aside the same way, not lose its text.
  it('compaction sets a duplicate-id line aside in memory.jsonl.rejected instead of dropping it', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    writeFileSync(
      path,
      '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"one"}\n{"id":1,"ts":"2026-01-02T00:00:00Z","kind":"fact","content":"hand-added, reused id 1"}\n',
    );
    const store = MemoryStore.open(path);
    expect(store.skipped.map((s) => s.reason)).toEqual(['duplicate id 1 (first used on line 1)']);
    await store.compact();
    expect(existsSync(`${path}.rejected`) && readFileSync(`${path}.rejected`, 'utf8')).toContain('hand-added, reused id 1');
  });
});

// ---------------------------------------------------------------------------------------------
// 4. isoTime
// ---------------------------------------------------------------------------------------------

describe('isoTime', () => {
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  const isoLikeArb = fc
    .record({
      y: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1960, max: 2100 })),
      mo: fc.integer({ min: 0, max: 13 }),
      d: fc.integer({ min: 0, max: 32 }),
      h: fc.integer({ min: 0, max: 25 }),
      mi: fc.integer({ min: 0, max: 61 }),
      s: fc.integer({ min: 0, max: 61 }),
      ms: fc.option(
        fc.oneof(
          fc.integer({ min: 0, max: 999 }).map((v) => pad(v, 3)),
          fc.constantFrom('1', '12', '1234', 'abc'),
        ),
        { nil: undefined },
      ),
      zone: fc.constantFrom('Z', 'Z', 'Z', '', '+02:00', '-11:30', 'z', ' Z'),
      sep: fc.constantFrom('T', 'T', 'T', 't', ' ', 'X'),
      // one character replaced: a letter in a digit's place, a wrong separator…
      flip: fc.option(fc.tuple(fc.nat({ max: 23 }), fc.constantFrom('a', '-', ':', '.', '0', '9', '/', ' ')), { nil: undefined }),
    })
    .map(({ y, mo, d, h, mi, s, ms, zone, sep, flip }) => {
      let str = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${sep}${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${ms !== undefined ? `.${ms}` : ''}${zone}`;
      if (flip) str = str.slice(0, flip[0]) + flip[1] + str.slice(flip[0] + 1);
      return str;
    });

  /** Exactly the shape of the hand-read fast path (20 or 24 characters), fields at and past their limits. */
  const canonicalArb = fc
    .record({
      y: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1895, max: 2105 }), fc.integer({ min: 0, max: 9999 })),
      mo: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 2, 13, 99)),
      d: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 26, max: 33 }), fc.constantFrom(0, 99)),
      h: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(24, 25, 99)),
      mi: fc.oneof(fc.integer({ min: 0, max: 59 }), fc.constantFrom(60, 99)),
      s: fc.oneof(fc.integer({ min: 0, max: 59 }), fc.constantFrom(60, 61, 99)),
      ms: fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
    })
    .map(
      ({ y, mo, d, h, mi, s, ms }) =>
        `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${ms !== undefined ? `.${pad(ms, 3)}` : ''}Z`,
    );

  it('agrees with Date.parse on generated ISO-like strings, valid and invalid', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          canonicalArb,
          isoLikeArb,
          fc.string({ maxLength: 26 }),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        (s) => {
          expect(Object.is(isoTime(s), Date.parse(s)), `${JSON.stringify(s)}: ${isoTime(s)} vs ${Date.parse(s)}`).toBe(true);
        },
      ),
      params(5000),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Fuzz: random bytes
// ---------------------------------------------------------------------------------------------

describe('random bytes', () => {
  const chunkArb = fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 60 }) },
    // bytes that matter: newlines, CR, NUL, braces, quotes, invalid and partial UTF-8
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.constantFrom(
            0x0a,
            0x0a,
            0x0d,
            0x00,
            0x7b,
            0x7d,
            0x22,
            0x27,
            0x2c,
            0x3a,
            0x5c,
            0xff,
            0xfe,
            0xc3,
            0x80,
            0xe2,
            0xf0,
            0x9f,
            0x23,
            0x2f,
            0x20,
          ),
          { maxLength: 40 },
        )
        .map((a) => Uint8Array.from(a)),
    },
    { weight: 3, arbitrary: itemRecArb.map((r) => Buffer.from(JSON.stringify(r) + '\n', 'utf8')) },
    { weight: 1, arbitrary: itemRecArb.map((r) => Buffer.from(JSON.stringify(r, null, 2) + '\n', 'utf8')) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{"id":7,"ts":"2026-01-01T00:00:00Z","kind":"forget","target":3}\n',
          '{"meta":{"maxId":50}}\n',
          "{id: 0x2a, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'x'}\n",
          '{\n',
        )
        .map((s) => Buffer.from(s)),
    },
    // now and then a huge line
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 60_000, max: 140_000 }), fc.constantFrom(0x78, 0x7b, 0xff, 0x22))
        .map(([n, b]) => Buffer.alloc(n, b)),
    },
  );
  const bytesArb = fc.array(chunkArb, { maxLength: 12 }).map((cs) => Buffer.concat(cs.map((c) => Buffer.from(c))));

  /** Which lines a parse used (records and headers) or reported, as spans. */
  function covered(entries: ReturnType<typeof parseLines>): { used: Set<number>; bad: Set<number> } {
    const used = new Set<number>();
    const bad = new Set<number>();
    for (const e of entries) for (let l = e.line; l <= (e.endLine ?? e.line); l++) (e.type === 'bad' ? bad : used).add(l);
    return { used, bad };
  }

  it('parseLines never throws, and every non-blank line is used or reported exactly once', () => {
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const text = bytes.toString('utf8');
        const entries = parseLines(text, 1, text.endsWith('\n'));
        const lines = text.split('\n');
        if (text.endsWith('\n')) lines.pop();
        const seen = new Map<number, number>();
        for (const e of entries) for (let l = e.line; l <= (e.endLine ?? e.line); l++) seen.set(l, (seen.get(l) ?? 0) + 1);
        lines.forEach((raw, i) => {
          if (isBlankLine(raw)) return;
          expect(seen.get(i + 1), `line ${i + 1}: ${JSON.stringify(raw.slice(0, 80))}`).toBe(1);
        });
        for (const e of entries) if (e.type === 'bad') expect(e.reason).not.toMatch(/[\u0000-\u001f\u007f]/);
      }),
      params(400),
    );
  });

  it('loadMemory on such a file never throws and reports every non-blank line it could not use', () => {
    const base = tmpDir();
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const dir = runDir(base);
        try {
          const path = join(dir, 'memory.jsonl');
          writeFileSync(path, bytes);
          const snap = loadMemory(path);
          // the store reads the complete lines, then the unfinished last one on its own
          const nl = bytes.lastIndexOf(0x0a);
          const complete = bytes.subarray(0, nl + 1).toString('utf8');
          const rest = bytes.subarray(nl + 1).toString('utf8');
          const head = parseLines(complete, 1, true);
          const tailLine = complete.split('\n').length;
          const tail = rest ? parseLines(rest, tailLine, false) : [];
          const { used } = covered([...head, ...tail]);
          const reported = new Set<number>();
          for (const s of snap.skipped) {
            for (let l = s.line; l <= (s.endLine ?? s.line); l++) reported.add(l);
            expect(s.reason).not.toMatch(/[\u0000-\u001f\u007f]/);
          }
          const lines = bytes.toString('utf8').split('\n');
          lines.forEach((raw, i) => {
            if (isBlankLine(raw)) {
              expect(reported.has(i + 1)).toBe(false);
              return;
            }
            // each non-blank line was either used as a record or reported (a duplicate id is both)
            expect(used.has(i + 1) || reported.has(i + 1), `line ${i + 1}: ${JSON.stringify(raw.slice(0, 80))}`).toBe(true);
          });
          // what was loaded is valid, unique, and within maxId
          const ids = new Set<number>();
          for (const it of snap.items) {
            expect(ids.has(it.id)).toBe(false);
            ids.add(it.id);
            expect(it.id).toBeLessThanOrEqual(snap.maxId);
            expect(['fact', 'pref', 'context']).toContain(it.kind);
            expect(it.content.trim()).not.toBe('');
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      params(300),
    );
  });
});
