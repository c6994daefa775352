/** Which memory items reach the model, and how each one reads in the [background] block. Pure: no I/O. */
import { sanitizeForBlock } from '../util/text';
import type { MemoryItem } from './types';

const DAY_MS = 86_400_000;

/** One bullet of the [background] block: `- (kind) text`, always a single safe line. */
export function backgroundLine(item: Pick<MemoryItem, 'kind' | 'content'>): string {
  return `- (${item.kind}) ${sanitizeForBlock(item.content)}`;
}

/**
 * Newest first until the next item would exceed `maxChars` (counted as rendered in the
 * [background] block, newline included). `items` must already be newest first.
 */
export function selectForInjection(items: readonly MemoryItem[], maxChars: number): MemoryItem[] {
  const out: MemoryItem[] = [];
  let used = 0;
  for (const item of items) {
    const cost = backgroundLine(item).length + 1;
    if (used + cost > maxChars) break;
    used += cost;
    out.push(item);
  }
  return out;
}

/** Items older than `days` at `now`; unset days means never prune. */
export function itemsToPrune(items: readonly MemoryItem[], days: number | undefined, now: Date): MemoryItem[] {
  if (days === undefined) return [];
  const cutoff = now.getTime() - days * DAY_MS;
  return items.filter((it) => Date.parse(it.ts) < cutoff);
}
