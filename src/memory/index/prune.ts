/**
 * `memory.pruneOlderThanDays` from the index: ids of active, unpinned items older than the cutoff,
 * found from the per-document times (the tail's items from their own), never by reading the file.
 */
import { ORDER_ENTRY } from './layout';
import type { MemoryIndex } from './memory-index';

const DAY_MS = 86_400_000;

export function indexPruneIds(ix: MemoryIndex, days: number | undefined, now: Date): number[] {
  const h = ix.header;
  if (days === undefined || !h) return [];
  const cutoff = now.getTime() - days * DAY_MS;
  const tail = ix.tail;
  const out: number[] = [];
  for (const it of tail?.items ?? []) if (Date.parse(it.ts) < cutoff && !tail!.state.isPinned(it)) out.push(it.id);
  const { ids, times } = ix.docs();
  // The pinned come first in `order`; the tail may pin or unpin some of them.
  const pinned = new Set<number>();
  if (h.pinned) {
    const u = new Uint32Array(ix.sidecar!.range('order', 0, h.pinned, ORDER_ENTRY));
    for (let i = 0; i < h.pinned; i++) pinned.add(u[i * (ORDER_ENTRY / 4)]!);
  }
  for (let s = 0; s < h.n; s++) {
    if (!(times[s]! < cutoff) || tail?.dead.has(s)) continue;
    if (tail?.pins.get(s) ?? pinned.has(s)) continue;
    out.push(ids[s]!);
  }
  return out;
}
