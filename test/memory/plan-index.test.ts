/**
 * `memory plan` from the index (counted from the header, scopes and lengths from the index, only
 * shown items read) says what a full in-memory computation says: the same [background], [recall],
 * items left out with their reasons and relevance, and counts — with project scopes, pins,
 * tombstones, and a tail appended after the index was built.
 */
import { mulberry32 } from '../helpers/random';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig, type MemoryConfig } from '../../src/config/types';
import { formatPlan } from '../../src/memory/recall/format-plan';
import { recallText } from '../../src/memory/index/build';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { isoTime } from '../../src/memory/log/parse';
import { pinTime } from '../../src/memory/log/pin-time';
import { planJson, type MemoryPlan } from '../../src/memory/recall/plan';
import { scopeFilter } from '../../src/memory/project/project';
import { chooseRecall } from '../../src/memory/recall/recall';
import { withNeighbours } from '../../src/memory/recall/recall-neighbours';
import { RecallIndex } from '../helpers/recall-reference';
import { selectBackground } from '../../src/memory/background/select';
import { MemorySession } from '../../src/memory/session';
import { MemoryStore } from '../../src/memory/store';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

const WORDS = ['deploy', 'friday', 'vim', 'rust', 'tabs', 'coffee', 'tests', 'night', 'release', 'pnpm', 'docker', 'editor'];
const SCOPES = [undefined, undefined, undefined, '/proj/a', '/proj/b'];
const KINDS = ['fact', 'pref', 'context'];
const NOW = Date.parse('2026-06-01T00:00:00Z');
const CWD = '/proj/a/src';
const base = DEFAULT_CONFIG.memory as MemoryConfig;
const CONFIG: AishConfig = {
  ...DEFAULT_CONFIG,
  memory: { ...base, injectMaxChars: 1500, recall: { enabled: true, maxChars: 700, minScore: 0.5 } },
};

/** `n` records: items of every kind and scope (some pinned), forgets and pins/unpins of earlier active items. */
function records(rnd: () => number, n: number, next: { id: number }, active: number[], timeOrdered: boolean, scoped = true): string[] {
  const out: string[] = [];
  const pick = (k: number) => Math.floor(rnd() * k);
  for (let i = 0; i < n; i++) {
    const id = next.id++;
    const ts = new Date(Date.parse('2025-01-01T00:00:00Z') + (timeOrdered ? id * 60_000 : pick(300) * 86_400_000)).toISOString();
    const r = rnd();
    if (r < 0.06 && active.length) {
      const target = active.splice(pick(active.length), 1)[0]!;
      out.push(JSON.stringify({ id, ts, kind: 'forget', target }));
    } else if (r < 0.1 && active.length) {
      out.push(JSON.stringify({ id, ts, kind: rnd() < 0.6 ? 'pin' : 'unpin', target: active[pick(active.length)] }));
    } else {
      active.push(id);
      // Mostly filler, so no word of WORDS is in most items (recall leaves such words out).
      const words = Array.from({ length: 1 + pick(14) }, () => (rnd() < 0.06 ? WORDS[pick(WORDS.length)]! : `w${pick(400)}`));
      const scope = scoped ? SCOPES[pick(SCOPES.length)] : undefined;
      out.push(
        JSON.stringify({
          id,
          ts,
          kind: KINDS[pick(3)],
          content: `${words.join(' ')} #${id}`,
          ...(scope && { scope }),
          ...(rnd() < 0.03 && { pinned: true }),
          // Received ones (another machine, an import) come after the user's own pins and prefs.
          ...(rnd() < 0.25 && (rnd() < 0.5 ? { via: 'laptop' } : { from: 'import:claude:CLAUDE.md' })),
        }),
      );
    }
  }
  return out;
}

/** The plan as a full read computes it: selectBackground and chooseRecall over every item in memory. */
function fullPlan(path: string, text: string): MemoryPlan {
  const store = MemoryStore.open(path);
  const items = store.items();
  const applies = scopeFilter(CWD);
  const isPinned = (it: MemoryItem) => store.isPinned(it);
  const pins = store.committed().state.pinsByTarget();
  const bg = selectBackground(items, { maxChars: 1500, isPinned, pinTime: (it) => pinTime(pins, it), applies });
  const mem = new RecallIndex();
  for (const it of items) mem.add({ id: it.id, text: recallText(it), time: isoTime(it.ts), scoped: it.scope !== undefined });
  const inBg = new Set(bg.items.map((i) => i.id));
  const ranked0 = chooseRecall(mem, [{ text, weight: 1 }], {
    now: NOW,
    maxChars: 700,
    minScore: 0.5,
    get: (id) => store.get(id),
    exclude: (it) => inBg.has(it.id) || !applies(it),
    limit: Math.max(1, items.length),
    turn: true,
  });
  const exclude = (it: MemoryItem) => inBg.has(it.id) || !applies(it);
  const r = { ...ranked0, items: withNeighbours(ranked0.items, { get: (id) => store.get(id), exclude, maxChars: 700 }) };
  const recalled = new Set(r.items.map((x) => x.item.id));
  const relevant = new Map(r.overBudget.map((x) => [x.item.id, x.relevance]));
  type Left = ReturnType<MemoryPlan['leftOut']>[number];
  // Pinned items left out are left out for budget, relevant or not.
  const pin = (it: MemoryItem) => (isPinned(it) ? { pinned: true as const } : {});
  const left: Left[] = [
    ...bg.outOfScope.map((it): Left => ({ id: it.id, reason: 'scope', ...pin(it) })),
    ...bg.overBudget
      .filter((it) => !recalled.has(it.id))
      .map((it): Left =>
        relevant.has(it.id)
          ? { id: it.id, reason: 'budget', relevance: relevant.get(it.id)!, ...pin(it) }
          : { id: it.id, reason: isPinned(it) ? 'budget' : 'below threshold', ...pin(it) },
      ),
  ];
  // Words ranks: places among every relevant hit by score.
  const ranked = [...r.items, ...r.overBudget].sort((a, b) => b.score - a.score || b.item.id - a.item.id);
  const ranks = new Map(ranked.map((x, i) => [x.item.id, { words: i + 1 }]));
  const counts = (['scope', 'budget', 'below threshold'] as const).map((reason): [Left['reason'], number] => [
    reason,
    left.filter((l) => l.reason === reason).length,
  ]);
  return {
    background: bg.items,
    recall: r.items,
    leftOutCounts: counts.filter(([, n]) => n > 0),
    leftOut: (limit = Infinity) => left.slice(0, limit),
    item: (id) => store.get(id),
    // A neighbour was not ranked in.
    ranks: (id) => (ranked0.items.some((x) => x.item.id === id) ? ranks.get(id) : undefined),
  };
}

async function expectSamePlan(path: string, text: string): Promise<MemoryPlan> {
  const session = new MemorySession(CONFIG, path, { cwd: () => CWD }, { notice: () => {}, changed: () => {} });
  const plan = await session.plan(text);
  const full = fullPlan(path, text);
  // The cut the message's words set is the index's own arithmetic (recall-cut.ts): what it let
  // through must reach it, and the rest of the plan must agree with the full computation.
  const c = plan.cutoff;
  if (c) {
    full.cutoff = c;
    for (const r of full.recall) if (r.neighbourOf === undefined) expect(r.relevance).toBeGreaterThanOrEqual(c.min - 1e-9);
  }
  const isPinned = (it: MemoryItem) => session.isPinned(it);
  expect(plan.background).toEqual(full.background);
  expect(plan.recall).toEqual(full.recall);
  expect(plan.leftOutCounts).toEqual(full.leftOutCounts);
  expect(plan.leftOut(50)).toEqual(full.leftOut(50));
  expect(plan.leftOut()).toEqual(full.leftOut());
  const o = { query: text, isPinned, maxLeftOut: 50 };
  expect(formatPlan(plan, o)).toEqual(formatPlan(full, o));
  const json = (p: MemoryPlan) => planJson(p, isPinned) as { recall: Array<{ ranks?: unknown; neighbour_of?: number }> };
  expect(json(plan)).toEqual(json(full));
  for (const r of json(plan).recall) if (r.neighbour_of === undefined) expect(r.ranks).toEqual({ words: expect.any(Number) });
  session.close();
  return full;
}

describe('memory plan from the index equals a full computation', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const cases = [
    { timeOrdered: true, scoped: true, name: 'ids in time order' },
    { timeOrdered: false, scoped: true, name: 'times shuffled' },
    { timeOrdered: true, scoped: false, name: 'no project items' },
  ];
  for (const { timeOrdered, scoped, name } of cases) {
    it(`thousands of items (${name}), pins and tombstones, then a tail`, async () => {
      const rnd = mulberry32(timeOrdered ? (scoped ? 21 : 7) : 42);
      const path = join(tmpDir(), 'memory.jsonl');
      const next = { id: 1 };
      const active: number[] = [];
      writeFileSync(path, records(rnd, 4000, next, active, timeOrdered, scoped).join('\n') + '\n');
      for (const text of ['deploy friday', 'coffee at night', 'nothing matches this']) {
        const full = await expectSamePlan(path, text);
        // Every reason occurs where the query has hits (the comparison covers each of them).
        const reasons = scoped ? ['scope', 'budget', 'below threshold'] : ['budget', 'below threshold'];
        if (text === 'deploy friday') expect(full.leftOutCounts.map(([r]) => r)).toEqual(reasons);
      }

      appendFileSync(path, records(rnd, 300, next, active, timeOrdered, scoped).join('\n') + '\n');
      const ix = new MemoryIndex(path);
      ix.refresh();
      // Laid over the index as its tail, not rebuilt: new items, forgets and pins of indexed items.
      expect(ix.builds).toBe(0);
      expect(ix.tail!.items.length).toBeGreaterThan(0);
      expect(ix.tail!.dead.size).toBeGreaterThan(0);
      expect(ix.tail!.pins.size).toBeGreaterThan(0);
      ix.close();
      for (const text of ['deploy friday', 'rust tabs editor']) await expectSamePlan(path, text);
      await expectSamePlan(path, '');
    });
  }
});
