/**
 * The index answers as a full read would: [background], [recall] and duplicate checks from the
 * index (built, or built and then appended to by other writers) equal those computed from
 * MemoryStore over the same file, for random files.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexBackground } from '../../src/memory/index/background';
import { duplicateOf } from '../../src/memory/index/duplicate';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { IndexSearch } from '../../src/memory/index/search';
import { listedItems, listedThroughIndex } from '../../src/memory/index/list';
import { scopeFilter } from '../../src/memory/project/project';
import { chooseRecall } from '../../src/memory/recall/recall';
import { RecallIndex } from '../helpers/recall-reference';
import { recallText } from '../../src/memory/index/build';
import { isoTime } from '../../src/memory/log/parse';
import { pinTime } from '../../src/memory/log/pin-time';
import { selectBackground } from '../../src/memory/background/select';
import { MemoryStore } from '../../src/memory/store';
import { unreadableCount, type MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

const WORDS = ['vim', 'emacs', 'editor', 'rust', 'tabs', 'spaces', 'deploy', 'friday', 'coffee', 'python', 'tests', 'night'];
const KINDS = ['fact', 'pref', 'context'] as const;

/** Where an item came from: written here, by another machine (sync), or imported — [background] puts the user's own first. */
const ORIGINS = [{}, { via: 'laptop' }, { from: 'import:claude:CLAUDE.md' }] as const;

type Rec =
  | { t: 'item'; kind: (typeof KINDS)[number]; words: number[]; day: number; scope: 0 | 1 | 2; pinned: boolean; origin: 0 | 1 | 2 }
  | { t: 'forget'; back: number }
  | { t: 'pin'; back: number; on: boolean; day: number };

const recArb: fc.Arbitrary<Rec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('item' as const),
      kind: fc.constantFrom(...KINDS),
      words: fc.array(fc.nat(WORDS.length - 1), { minLength: 1, maxLength: 6 }),
      day: fc.integer({ min: 1, max: 28 }),
      scope: fc.constantFrom(0 as const, 1 as const, 2 as const),
      pinned: fc.boolean(),
      origin: fc.constantFrom(0 as const, 0 as const, 1 as const, 2 as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('forget' as const), back: fc.nat(20) }) },
  {
    weight: 1,
    // A pin's own time, before or after its item's: the most recently pinned come first.
    arbitrary: fc.record({ t: fc.constant('pin' as const), back: fc.nat(20), on: fc.boolean(), day: fc.integer({ min: 1, max: 28 }) }),
  },
);

/** Lines for records, ids from `next`; forgets and pins name earlier items (from `items`). */
function lines(recs: Rec[], next: { id: number }, items: number[]): string[] {
  const out: string[] = [];
  for (const r of recs) {
    const id = next.id++;
    if (r.t === 'item') {
      items.push(id);
      const scope = r.scope === 0 ? {} : { scope: r.scope === 1 ? '/proj/a' : '/proj/b' };
      out.push(
        JSON.stringify({
          id,
          ts: `2026-01-${String(r.day).padStart(2, '0')}T00:00:00Z`,
          kind: r.kind,
          content: r.words.map((w) => WORDS[w]).join(' '),
          ...scope,
          ...ORIGINS[r.origin],
          ...(r.pinned && { pinned: true }),
        }),
      );
    } else if (items.length) {
      const target = items[Math.max(0, items.length - 1 - r.back)]!;
      out.push(
        JSON.stringify(
          r.t === 'forget'
            ? { id, ts: '2026-02-01T00:00:00Z', kind: 'forget', target }
            : { id, ts: `2026-01-${String(r.day).padStart(2, '0')}T12:00:00Z`, kind: r.on ? 'pin' : 'unpin', target },
        ),
      );
    }
  }
  return out;
}

function compare(path: string, budget: number, cwd: string, query: string): number {
  const store = MemoryStore.open(path);
  const ix = new MemoryIndex(path);
  ix.refresh();
  const isPinned = (it: MemoryItem) => store.isPinned(it);
  const pins = store.committed().state.pinsByTarget();
  const full = selectBackground(store.items(), {
    maxChars: budget,
    isPinned,
    pinTime: (it) => pinTime(pins, it),
    applies: scopeFilter(cwd),
  });
  const fromIndex = indexBackground(ix, budget, cwd);
  expect(fromIndex.items).toEqual(full.items);
  expect(fromIndex.pinnedChars).toBe(full.pinnedChars);
  expect(fromIndex.pinnedLeftOut).toEqual(full.pinnedLeftOut.map((i) => i.id));
  expect([...fromIndex.pinnedIds].sort((a, b) => a - b)).toEqual(
    store
      .items()
      .filter(isPinned)
      .map((i) => i.id)
      .sort((a, b) => a - b),
  );
  expect([...fromIndex.overBudget()]).toEqual(full.overBudget.map((i) => i.id));
  expect(fromIndex.overBudgetCount).toBe(full.overBudget.length);
  expect(fromIndex.outOfScope()).toEqual(full.outOfScope.map((i) => i.id));
  expect(fromIndex.outOfScope(3)).toEqual(full.outOfScope.slice(0, 3).map((i) => i.id));
  expect(fromIndex.outOfScopeCount).toBe(full.outOfScope.length);

  const mem = new RecallIndex();
  for (const it of store.items()) mem.add({ id: it.id, text: recallText(it), time: isoTime(it.ts), scoped: it.scope !== undefined });
  const now = Date.parse('2026-03-01T00:00:00Z');
  const o = { now, maxChars: 600, minScore: 0.1, exclude: () => false, limit: 20 };
  const q = [
    { text: query, weight: 1 },
    { text: 'coffee tests', weight: 0.5 },
  ];
  // A search, and a turn (weak terms, the cut to the message's words, maxItems, project items first).
  for (const turn of [false, true]) {
    const a = chooseRecall(mem, q, { ...o, turn, get: (id) => store.get(id) });
    const b = chooseRecall(new IndexSearch(ix), q, { ...o, turn, get: (id) => ix.get(id) });
    expect(b).toEqual(a);
  }
  for (const it of store.items().slice(0, 5)) expect(duplicateOf(ix, it.scope, ` ${it.content.toUpperCase()} `)?.id).toBeDefined();
  expect(duplicateOf(ix, undefined, 'never said')).toBeUndefined();
  expect(ix.counts().total).toBe(store.items().length);
  expect(ix.counts().maxId).toBe(store.maxId);
  expect(ix.counts().dangling).toEqual(store.danglingTombstones().map((t) => t.line));
  expect(ix.counts().unreadable).toBe(unreadableCount(store.skipped));
  expect(ix.counts().keptAsIs).toBe(store.skipped.length - unreadableCount(store.skipped));
  // `aish memory list --json` through the index: every active item, newest first, pinned as the store
  // says. Not with a line reported (a copied item given a uid of its own): the full read lists those.
  if (ix.counts().keptAsIs === 0) expect([...listedItems(ix)]).toEqual(store.items().map((it) => [it, store.isPinned(it)]));
  else expect(listedThroughIndex(path, null)).toBeNull();
  ix.close();
  return ix.builds;
}

describe('the index answers as a full read does', () => {
  it('built from a file, and with a tail appended after it was built', () => {
    fc.assert(
      fc.property(
        fc.array(recArb, { maxLength: 40 }),
        fc.array(recArb, { maxLength: 10 }),
        fc.integer({ min: 60, max: 400 }),
        fc.constantFrom('/proj/a/src', '/elsewhere'),
        fc.constantFrom('vim editor', 'rust tabs', 'friday deploy night'),
        (first, second, budget, cwd, query) => {
          const path = join(tmpDir(), 'memory.jsonl');
          const next = { id: 1 };
          const items: number[] = [];
          writeFileSync(
            path,
            lines(first, next, items)
              .map((l) => l + '\n')
              .join(''),
          );
          expect(compare(path, budget, cwd, query)).toBe(1);
          const more = lines(second, next, items);
          if (more.length) appendFileSync(path, more.join('\n') + '\n');
          // Laid over the index written by the first look; a record the index cannot place (a pin
          // of a forgotten item, say) rebuilds it. Either way the answers are a full read's.
          expect(compare(path, budget, cwd, query)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('appends of new items, forgets and pins of indexed items are laid over the index without a new build', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const next = { id: 1 };
    const items: number[] = [];
    const item = (day: number, words: number[], kind: (typeof KINDS)[number] = 'fact'): Rec => ({
      t: 'item',
      kind,
      words,
      day,
      scope: 0,
      pinned: false,
      origin: 0,
    });
    writeFileSync(path, lines([item(1, [0, 1]), item(2, [2, 3], 'pref'), item(3, [4, 5]), item(4, [6, 7])], next, items).join('\n') + '\n');
    expect(compare(path, 200, '/', 'vim tabs')).toBe(1);
    appendFileSync(
      path,
      lines([item(5, [0, 8]), { t: 'forget', back: 1 }, { t: 'pin', back: 4, on: true, day: 9 }], next, items).join('\n') + '\n',
    );
    expect(compare(path, 200, '/', 'vim tabs')).toBe(0);
  });

  it('a line copied by hand, appended after the index was built (its original active, or forgotten): the answers are a full read’s', () => {
    for (const forget of [false, true]) {
      const path = join(tmpDir(), 'memory.jsonl');
      const next = { id: 1 };
      const items: number[] = [];
      const item = (day: number): Rec => ({ t: 'item', kind: 'fact', words: [0, 1], day, scope: 0, pinned: false, origin: 0 });
      const first = [item(1), item(2), ...(forget ? [{ t: 'forget' as const, back: 1 }] : [])];
      writeFileSync(path, lines(first, next, items).join('\n') + '\n');
      expect(compare(path, 200, '/', 'vim tabs')).toBe(1);
      appendFileSync(path, lines([item(1)], next, items).join('\n') + '\n'); // the first line again, under a new id
      // A copy of an active item is given a uid of its own and reported (so `list --json` reads the
      // file, which knows it); a forgotten item pasted back keeps its uid. The index sees both.
      const store = MemoryStore.open(path);
      const ix = new MemoryIndex(path);
      ix.refresh();
      expect(ix.counts()).toMatchObject({ total: store.items().length, unreadable: 0, keptAsIs: forget ? 0 : 1 });
      expect(store.skipped).toHaveLength(forget ? 0 : 1);
      if (forget) expect([...listedItems(ix)]).toEqual(store.items().map((it) => [it, store.isPinned(it)]));
      else expect(listedThroughIndex(path, null)).toBeNull();
      ix.close();
    }
  });

  it('a line copied by hand inside the file the index is built from: an item read by offset carries the uid the full read gives it', () => {
    // Found by the property above (1 run in ~20,000): two hand-copied lines without a uid, built
    // into the index, came back from it without the uid the full read gives the second.
    const path = join(tmpDir(), 'memory.jsonl');
    const next = { id: 1 };
    const copy: Rec = { t: 'item', kind: 'context', words: [8], day: 17, scope: 0, pinned: false, origin: 0 };
    writeFileSync(path, lines([copy, copy, { ...copy, words: [0] }], next, []).join('\n') + '\n');
    expect(compare(path, 107, '/proj/a/src', 'vim editor')).toBe(1);
    const store = MemoryStore.open(path);
    const ix = new MemoryIndex(path);
    ix.refresh();
    expect(store.get(2)?.uid).toMatch(/^[0-9A-Z]{26}$/);
    for (const id of [1, 2, 3]) expect(ix.get(id)).toEqual(store.get(id));
    expect(Object.keys(ix.get(2)!)).toEqual(Object.keys(store.get(2)!));
    ix.close();
  });

  it('leaves out terms too common to matter exactly as the in-memory ranking does, also with a tail that forgets', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const text = (i: number) => `note ${i} deploy ${i % 7 === 0 ? 'friday' : 'monday'} project p${i % 50}${i % 400 === 0 ? ' rare' : ''}`;
    const lines = Array.from({ length: 3000 }, (_, k) =>
      JSON.stringify({ id: k + 1, ts: new Date(Date.UTC(2025, 0, 1) + k * 60_000).toISOString(), kind: 'fact', content: text(k + 1) }),
    );
    writeFileSync(path, lines.join('\n') + '\n');
    const check = (queries: string[]) => {
      const store = MemoryStore.open(path);
      const ix = new MemoryIndex(path);
      ix.refresh();
      const mem = new RecallIndex();
      for (const it of store.items()) mem.add({ id: it.id, text: recallText(it), time: isoTime(it.ts), scoped: it.scope !== undefined });
      const o = { now: Date.UTC(2025, 6, 1), maxChars: 2000, minScore: 0.5, exclude: () => false, limit: 30 };
      for (const q of queries) {
        const parts = [{ text: q, weight: 1 }];
        for (const turn of [false, true])
          expect(chooseRecall(new IndexSearch(ix), parts, { ...o, turn, get: (id) => ix.get(id) })).toEqual(
            chooseRecall(mem, parts, { ...o, turn, get: (id) => store.get(id) }),
          );
      }
      ix.close();
    };
    const queries = ['deploy project p7', 'friday rare', 'deploy monday', 'p12 p13 deploy friday'];
    check(queries);
    // Forget many of the friday items: near the cut, the live frequency decides.
    const forgets = Array.from({ length: 300 }, (_, k) =>
      JSON.stringify({ id: 3001 + k, ts: '2025-03-01T00:00:00Z', kind: 'forget', target: 7 * (k + 1) }),
    );
    appendFileSync(path, forgets.join('\n') + '\n');
    check(queries);
  });
});
