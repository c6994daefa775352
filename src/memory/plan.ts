/**
 * `:memory plan` / `aish memory plan`: what would be sent for a message, and why everything else is
 * not. Built from the background choice (every item left out, by id) and a recall with every hit
 * considered; the items left out are read only when shown.
 */
import type { IndexBackground } from './index/background';
import type { PlanRecall } from './index/plan-recall';
import type { Recalled } from './recall';
import { ranksOf, type MeaningNote } from './recall-hybrid';
import type { MemoryItem } from './types';

type LeftOutReason = 'budget' | 'scope' | 'below threshold';

interface LeftOut {
  id: number;
  reason: LeftOutReason;
  relevance?: number;
}

export interface MemoryPlan {
  background: MemoryItem[];
  recall: Recalled[];
  /** Hybrid recall: how the meaning ranking took part (absent: words only, no embeddings configured). */
  meaning?: MeaningNote;
  /** How many items are left out, by reason (in the order they are listed). */
  leftOutCounts: Array<[LeftOutReason, number]>;
  /** The first `limit` items left out (all without one): other projects' first, then the rest newest first. */
  leftOut(limit?: number): LeftOut[];
  /** An item by id (to show one left out). */
  item(id: number): MemoryItem | undefined;
}

/**
 * `recall` null: no message to recall for (nothing left out is then "below threshold"). At 1M
 * items nearly all are left out: they are counted from the index and listed only as far as asked.
 */
export function buildPlan(bg: IndexBackground, recall: PlanRecall | null, item: (id: number) => MemoryItem | undefined): MemoryPlan {
  const recalled = new Set(recall?.items.map((r) => r.item.id));
  const relevant = recall?.overBudget ?? new Map<number, number>();
  // Whatever recall considered applies here and is not in [background]: it is among bg.overBudget.
  const budget = recall ? relevant.size : bg.overBudgetCount;
  const below = recall ? bg.overBudgetCount - recalled.size - relevant.size : 0;
  const counts: Array<[LeftOutReason, number]> = [
    ['scope', bg.outOfScopeCount],
    ['budget', budget],
    ['below threshold', below],
  ];
  const leftOut = (limit = Infinity): LeftOut[] => {
    const out: LeftOut[] = [];
    for (const id of bg.outOfScope(limit)) out.push({ id, reason: 'scope' });
    if (out.length >= limit) return out;
    for (const id of bg.overBudget()) {
      if (recalled.has(id)) continue;
      const relevance = relevant.get(id);
      if (relevance !== undefined) out.push({ id, reason: 'budget', relevance });
      else out.push({ id, reason: recall ? 'below threshold' : 'budget' });
      if (out.length >= limit) return out;
    }
    return out;
  };
  return { background: bg.items, recall: recall?.items ?? [], leftOutCounts: counts.filter(([, n]) => n > 0), leftOut, item };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Hybrid recall: `words_rank` and `meaning_rank` (null: not in that ranking), `fused`, `similarity`. */
function ranksJson(r: Recalled): object {
  const k = ranksOf(r);
  if (!k) return {};
  const similarity = k.similarity === undefined ? {} : { similarity: round(k.similarity) };
  return { words_rank: k.wordsRank, meaning_rank: k.meaningRank, fused: Math.round(k.fused * 1e6) / 1e6, ...similarity };
}

/** The `--json` shape: `{background:[…], recall:[{id, score, …}], left_out:[{id, reason}]}`. */
export function planJson(plan: MemoryPlan, isPinned: (item: MemoryItem) => boolean): object {
  const base = (it: MemoryItem & { author?: string }) => ({
    ...(it.author === undefined ? { id: it.id } : { team: it.author }),
    kind: it.kind,
    content: it.content,
    ...(isPinned(it) && { pinned: true }),
    ...(it.scope && { scope: it.scope }),
  });
  return {
    background: plan.background.map(base),
    recall: plan.recall.map((r) => ({ ...base(r.item), score: round(r.score), relevance: round(r.relevance), ...ranksJson(r) })),
    ...(plan.meaning && { meaning: plan.meaning }),
    left_out: plan.leftOut().map((l) => ({
      id: l.id,
      reason: l.reason,
      ...(l.relevance !== undefined && { relevance: round(l.relevance) }),
    })),
  };
}
