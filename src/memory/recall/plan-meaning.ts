/**
 * The plan of a message when recall is hybrid: its [recall] is the fused choice a turn would send
 * (recall-hybrid.ts), and what the words-only plan listed is moved accordingly — an item recalled
 * by meaning is no longer left out, one the fusion pushed out of the block is left out for room.
 */
import type { MemoryPlan } from './plan';
import type { Recalled } from './recall';
import type { MeaningNote } from './recall-hybrid';

export function withMeaningPlan(
  plan: MemoryPlan,
  recall: Recalled[],
  meaning: MeaningNote | undefined,
  /** Was left out for room in the words-only plan (else: below threshold). */
  wasBudget: (id: number) => boolean,
): MemoryPlan {
  const now = new Set(recall.map((r) => r.item.id));
  const dropped = plan.recall.filter((r) => !now.has(r.item.id));
  const before = new Set(plan.recall.map((r) => r.item.id));
  let budget = dropped.length;
  let below = 0;
  for (const id of now) {
    if (before.has(id)) continue;
    if (wasBudget(id)) budget--;
    else below--;
  }
  const counts = plan.leftOutCounts.map(([reason, n]): MemoryPlan['leftOutCounts'][number] => [
    reason,
    n + (reason === 'budget' ? budget : reason === 'below threshold' ? below : 0),
  ]);
  if (budget > 0 && !counts.some(([r]) => r === 'budget')) counts.push(['budget', budget]);
  return {
    ...plan,
    recall,
    ...(meaning && { meaning }),
    leftOutCounts: counts.filter(([, n]) => n > 0),
    leftOut: (limit = Infinity) => {
      const out: ReturnType<MemoryPlan['leftOut']> = dropped.map((r) => ({ id: r.item.id, reason: 'budget', relevance: r.relevance }));
      for (const l of plan.leftOut(limit === Infinity ? limit : limit + now.size)) if (!now.has(l.id)) out.push(l);
      return out.slice(0, limit);
    },
  };
}
