/**
 * `:memory plan` / `aish memory plan`: what would be sent for a message, and why everything else is
 * not. Built from the background choice (every item left out, by id) and a recall with every hit
 * considered; the items left out are read only when shown.
 */
import type { IndexBackground } from '../index/background';
import type { PlanRecall, Ranks, RecallCutoff } from '../index/plan-recall';
import { originOf } from '../origin';
import type { Recalled } from './recall';
import { ranksOf, type MeaningNote } from './recall-hybrid';
import { periodText, type TimeReading } from './time-words';
import type { MemoryItem } from '../types';

type LeftOutReason = 'budget' | 'scope' | 'below threshold';

interface LeftOut {
  id: number;
  reason: LeftOutReason;
  relevance?: number;
  /** A pinned item: its reason is `budget` (or `scope`), never `below threshold`. */
  pinned?: true;
}

export interface MemoryPlan {
  background: MemoryItem[];
  recall: Recalled[];
  /** What a recalled item's relevance had to reach for the message (absent: no message, or no word of it in any item). */
  cutoff?: RecallCutoff;
  /** Hybrid recall: how the meaning ranking took part (absent: words only, no embeddings configured). */
  meaning?: MeaningNote;
  /** The time the message asks about (absent: none). */
  time?: TimeReading;
  /** How many items are left out, by reason (in the order they are listed). */
  leftOutCounts: Array<[LeftOutReason, number]>;
  /** The first `limit` items left out (all without one): other projects' first, then the rest newest first. */
  leftOut(limit?: number): LeftOut[];
  /** An item by id (to show one left out). */
  item(id: number): MemoryItem | undefined;
  /** Where recall ranked an item (every recalled one has its ranks); undefined when it did not. */
  ranks(id: number): Ranks | undefined;
}

/**
 * `recall` null: no message to recall for (nothing left out is then "below threshold"). At 1M
 * items nearly all are left out: they are counted from the index and listed only as far as asked.
 */
export function buildPlan(bg: IndexBackground, recall: PlanRecall | null, item: (id: number) => MemoryItem | undefined): MemoryPlan {
  const recalled = new Set(recall?.items.map((r) => r.item.id));
  const relevant = recall?.overBudget ?? new Map<number, number>();
  // Pinned items [background] had no room for are left out for budget, relevant or not.
  const pinnedOut = new Set(bg.pinnedLeftOut.filter((id) => !recalled.has(id) && !relevant.has(id)));
  // Whatever recall considered applies here and is not in [background]: it is among bg.overBudget.
  const budget = recall ? relevant.size + pinnedOut.size : bg.overBudgetCount;
  const below = recall ? bg.overBudgetCount - recalled.size - relevant.size - pinnedOut.size : 0;
  const pin = (id: number) => (bg.pinnedIds.has(id) ? { pinned: true as const } : {});
  const counts: Array<[LeftOutReason, number]> = [
    ['scope', bg.outOfScopeCount],
    ['budget', budget],
    ['below threshold', below],
  ];
  const leftOut = (limit = Infinity): LeftOut[] => {
    const out: LeftOut[] = [];
    for (const id of bg.outOfScope(limit)) out.push({ id, reason: 'scope', ...pin(id) });
    if (out.length >= limit) return out;
    for (const id of bg.overBudget()) {
      if (recalled.has(id)) continue;
      const relevance = relevant.get(id);
      if (relevance !== undefined) out.push({ id, reason: 'budget', relevance, ...pin(id) });
      else out.push({ id, reason: recall && !pinnedOut.has(id) ? 'below threshold' : 'budget', ...pin(id) });
      if (out.length >= limit) return out;
    }
    return out;
  };
  const ranks = (id: number) => recall?.ranks.get(id);
  return {
    background: bg.items,
    recall: recall?.items ?? [],
    ...(recall?.cutoff && { cutoff: recall.cutoff }),
    ...(recall?.time && { time: recall.time }),
    leftOutCounts: counts.filter(([, n]) => n > 0),
    leftOut,
    item,
    ranks,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Hybrid recall: `words_rank` and `meaning_rank` (null: not in that ranking), `fused`, `similarity`. */
function ranksJson(r: Recalled): object {
  const k = ranksOf(r);
  if (!k) return {};
  const similarity = k.similarity === undefined ? {} : { similarity: round(k.similarity) };
  return { words_rank: k.wordsRank, meaning_rank: k.meaningRank, fused: Math.round(k.fused * 1e6) / 1e6, ...similarity };
}

/**
 * The `--json` shape: `{background:[…], recall:[{id, score, relevance, ranks, …}], left_out:[{id, reason, …}]}`.
 * Every entry says `pinned: true` when pinned, and `from` where it came from (origin.ts); `ranks` is an object of rankings (`words`), so more can join it.
 */
export function planJson(plan: MemoryPlan, isPinned: (item: MemoryItem) => boolean): object {
  const base = (it: MemoryItem & { author?: string }) => ({
    ...(it.author === undefined ? { id: it.id } : { team: it.author }),
    kind: it.kind,
    content: it.content,
    ...(isPinned(it) && { pinned: true }),
    ...(it.scope && { scope: it.scope }),
    from: it.author === undefined ? originOf(it) : `team:${it.author}`,
  });
  return {
    background: plan.background.map(base),
    recall: plan.recall.map((r) => ({
      ...base(r.item),
      score: round(r.score),
      relevance: round(r.relevance),
      ...wordsRanksOf(plan, r.item),
      ...ranksJson(r),
      ...(r.neighbourOf !== undefined && { neighbour_of: r.neighbourOf }),
      ...(r.favoured && { favoured: r.favoured }),
    })),
    ...(plan.cutoff && { cutoff: cutoffJson(plan.cutoff) }),
    ...(plan.time && { time: { said: plan.time.said, periods: plan.time.periods.map(periodText), when: plan.time.when } }),
    ...(plan.meaning && { meaning: plan.meaning }),
    left_out: plan.leftOut().map((l) => ({
      id: l.id,
      reason: l.reason,
      ...(l.pinned && { pinned: true }),
      ...(l.relevance !== undefined && { relevance: round(l.relevance) }),
    })),
  };
}

/** `{ranks: {words: 3}}` for an item of the store recall ranked, else nothing (team items have none). */
function wordsRanksOf(plan: MemoryPlan, it: { id: number; author?: string }): { ranks?: Ranks } {
  const r = it.author === undefined ? plan.ranks(it.id) : undefined;
  return r ? { ranks: r } : {};
}

function cutoffJson(c: RecallCutoff): object {
  return {
    min_relevance: round(c.min),
    ideal: round(c.ideal),
    ideal_cut: round(c.idealCut),
    best: round(c.best),
    best_cut: round(c.bestCut),
    min_score: c.minScore,
    max_items: c.maxItems,
    ...(c.nothing && { nothing: c.nothing }),
  };
}
