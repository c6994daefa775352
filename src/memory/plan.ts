/**
 * `:memory plan` / `aish memory plan`: what would be sent for a message, and why everything else is
 * not. Pure: built from the background choice and a recall with every hit considered.
 */
import type { RecallChoice } from './recall';
import type { BackgroundChoice } from './select';
import type { MemoryItem } from './types';

export type LeftOutReason = 'budget' | 'scope' | 'below threshold';

export interface MemoryPlan {
  background: MemoryItem[];
  recall: RecallChoice['items'];
  leftOut: Array<{ item: MemoryItem; reason: LeftOutReason; relevance?: number }>;
}

/** `recall` null: no message to recall for (nothing left out is then "below threshold"). */
export function buildPlan(bg: BackgroundChoice, recall: RecallChoice | null): MemoryPlan {
  const leftOut: MemoryPlan['leftOut'] = bg.outOfScope.map((item) => ({ item, reason: 'scope' as const }));
  const recalled = new Set(recall?.items.map((r) => r.item.id));
  const relevant = new Map(recall?.overBudget.map((r) => [r.item.id, r.relevance]));
  for (const item of bg.overBudget) {
    if (recalled.has(item.id)) continue;
    const relevance = relevant.get(item.id);
    if (relevance !== undefined) leftOut.push({ item, reason: 'budget', relevance });
    else leftOut.push({ item, reason: recall ? 'below threshold' : 'budget' });
  }
  return { background: bg.items, recall: recall?.items ?? [], leftOut };
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
      id: l.item.id,
      reason: l.reason,
      ...(l.relevance !== undefined && { relevance: round(l.relevance) }),
    })),
  };
}
