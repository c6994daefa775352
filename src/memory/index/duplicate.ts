/**
 * The duplicate check of an add, from the index: an active item in the same scope that says the
 * same (white space and case aside). The key table gives candidates by hash; each is confirmed
 * against the item's own line in memory.jsonl, so the answer is exact.
 */
import { sameItemKey } from '../log/records';
import type { MemoryItem } from '../types';
import { hash32 } from './layout';
import type { MemoryIndex } from './memory-index';

export function duplicateOf(ix: MemoryIndex, scope: string | undefined, content: string): MemoryItem | undefined {
  const key = sameItemKey(scope, content);
  const t = ix.tail;
  for (const it of t?.items ?? []) if (sameItemKey(it.scope, it.content) === key) return it;
  const h = ix.header;
  if (!h) return undefined;
  const want = hash32(key);
  const mask = h.keyCap - 1;
  for (let i = want & mask; ; i = (i + 1) & mask) {
    const pair = ix.sidecar!.u32('khash', i * 2, 2);
    const slot1 = pair[1]!;
    if (slot1 === 0) return undefined;
    if (pair[0] !== want || t?.dead.has(slot1 - 1)) continue;
    const it = ix.itemBySlot(slot1 - 1);
    if (sameItemKey(it.scope, it.content) === key) return it;
  }
}
