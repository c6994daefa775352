/**
 * Neighbours: a recalled context item brings the items written next to it — the one before and the one
 * after in the file, context too, of the same session (same `source` when both name one) and within
 * NEIGHBOUR_MS — while the [recall] budget has room. A conversation's answer is often the turn
 * after the one that matches the question's words.
 */
import { RECALL_HEADER, recallLine } from '../background/blocks';
import { isoTime } from '../log/parse';
import type { Recalled, RecallOptions } from './recall';
import { recallBudget } from './recall-cut';
import type { MemoryItem } from '../types';

/** Written this close in time to a recalled item (and next to it): its neighbour. */
const NEIGHBOUR_MS = 10 * 60_000;

/** `maxChars`: `memory.recall.maxChars` (the budget grows as recall.ts's does). */
export interface NeighbourOptions extends Pick<RecallOptions, 'get' | 'exclude' | 'maxChars'> {
  /** For the age old lines show (blocks.ts); default: now. */
  now?: number;
}

/** `chosen` with each item's neighbours placed around it, as far as the budget allows (best items' first). */
export function withNeighbours(chosen: readonly Recalled[], o: NeighbourOptions): Recalled[] {
  if (chosen.length === 0) return [...chosen];
  const budget = recallBudget(o.maxChars, chosen.length);
  const now = o.now ?? Date.now();
  let used = RECALL_HEADER.length;
  for (const r of chosen) used += recallLine(r.item, now).length + 1;
  const taken = new Set(chosen.map((r) => r.item.id));
  const before = new Map<number, Recalled>();
  const after = new Map<number, Recalled>();
  for (const r of chosen) {
    const it = r.item;
    // Only context items have neighbours (nextTo): a fact's are not read.
    if (it.id <= 0 || it.kind !== 'context' || (it as { author?: string }).author !== undefined) continue;
    for (const [id, side] of [
      [it.id - 1, before],
      [it.id + 1, after],
    ] as const) {
      if (taken.has(id)) continue;
      const n = o.get(id);
      if (!n || o.exclude(n) || !nextTo(it, n)) continue;
      const cost = recallLine(n, now).length + 1;
      if (used + cost > budget) continue;
      used += cost;
      taken.add(id);
      side.set(it.id, { item: n, score: 0, relevance: 0, neighbourOf: it.id });
    }
  }
  const out: Recalled[] = [];
  for (const r of chosen) {
    const b = before.get(r.item.id);
    const a = after.get(r.item.id);
    if (b) out.push(b);
    out.push(r);
    if (a) out.push(a);
  }
  return out;
}

/** Context items (what was said or done in a session) have neighbours; a fact or a pref stands alone. */
function nextTo(a: MemoryItem, b: MemoryItem): boolean {
  if (a.kind !== 'context' || b.kind !== 'context') return false;
  if (a.source !== undefined && b.source !== undefined && a.source !== b.source) return false;
  if ((a.scope ?? '') !== (b.scope ?? '')) return false;
  return Math.abs(isoTime(a.ts) - isoTime(b.ts)) <= NEIGHBOUR_MS;
}
