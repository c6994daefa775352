/**
 * `:memory plan` / `aish memory plan`: what would be sent for a message, and why everything else is
 * not. Built from the background choice (every item left out, by id) and a recall with every hit
 * considered; the items left out are read only when shown.
 */
import type { IndexBackground } from './index/background';
import type { RecallChoice } from './recall';
import type { MemoryItem } from './types';

export type LeftOutReason = 'budget' | 'scope' | 'below threshold';

export interface MemoryPlan {
  background: MemoryItem[];
  recall: RecallChoice['items'];
  leftOut: Array<{ id: number; reason: LeftOutReason; relevance?: number }>;
  /** An item by id (to show one left out). */
  item(id: number): MemoryItem | undefined;
}

/** `recall` null: no message to recall for (nothing left out is then "below threshold"). */
export function buildPlan(bg: IndexBackground, recall: RecallChoice | null, item: (id: number) => MemoryItem | undefined): MemoryPlan {
  const leftOut: MemoryPlan['leftOut'] = bg.outOfScope.map((id) => ({ id, reason: 'scope' as const }));
  const recalled = new Set(recall?.items.map((r) => r.item.id));
  const relevant = new Map(recall?.overBudget.map((r) => [r.item.id, r.relevance]));
  for (const id of bg.overBudget) {
    if (recalled.has(id)) continue;
    const relevance = relevant.get(id);
    if (relevance !== undefined) leftOut.push({ id, reason: 'budget', relevance });
    else leftOut.push({ id, reason: recall ? 'below threshold' : 'budget' });
  }
  return { background: bg.items, recall: recall?.items ?? [], leftOut, item };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The `--json` shape: `{background:[…], recall:[{id, score, …}], left_out:[{id, reason}]}`. */
export function planJson(plan: MemoryPlan, isPinned: (item: MemoryItem) => boolean): object {
  const base = (it: MemoryItem) => ({
    id: it.id,
    kind: it.kind,
    content: it.content,
    ...(isPinned(it) && { pinned: true }),
    ...(it.scope && { scope: it.scope }),
  });
  return {
    background: plan.background.map(base),
    recall: plan.recall.map((r) => ({ ...base(r.item), score: round(r.score), relevance: round(r.relevance) })),
    left_out: plan.leftOut.map((l) => ({
      id: l.id,
      reason: l.reason,
      ...(l.relevance !== undefined && { relevance: round(l.relevance) }),
    })),
  };
}
