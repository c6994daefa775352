/**
 * `memory.pruneOlderThanDays` from the index: ids of active, unpinned items older than the cutoff,
 * found from the per-document times (the tail's items from their own), never by reading the file.
 */
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
  for (let s = 0; s < h.n; s++) {
    if (!(times[s]! < cutoff) || tail?.dead.has(s) || ix.slotPinned(s)) continue;
    out.push(ids[s]!);
  }
  return out;
}
