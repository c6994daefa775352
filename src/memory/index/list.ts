/**
 * Every active item through the index, newest first (as a full read lists them: time, then id,
 * descending): the indexed ones read from memory.jsonl by offset a stretch at a time, the tail's
 * merged in, the forgotten left out. What `aish memory list --json` streams without folding the
 * whole file into memory.
 */
import { readAt } from '../../util/fs-safe';
import { isoTime } from '../log/parse';
import type { MemoryItem } from '../types';
import type { MemoryIndex } from './memory-index';
import { checked, itemsIn } from './record-read';

/** Bytes read at once: a stretch of neighbouring records, one read for many items. */
const STRETCH = 1 << 16;

/** Indexed slots newest first: reversed when the ids are in time order, else sorted by time and id. */
function newestFirst(ix: MemoryIndex): Uint32Array {
  const n = ix.header!.n;
  const slots = Uint32Array.from({ length: n }, (_, i) => n - 1 - i);
  if (ix.header!.timeOrdered) return slots;
  const { ids, times } = ix.docs();
  return slots.sort((a, b) => times[b]! - times[a]! || ids[b]! - ids[a]!);
}

/** Active items with whether each is pinned, newest first; `fd`: memory.jsonl open for reading. */
export function* listedItems(ix: MemoryIndex, fd: number): Generator<[MemoryItem, boolean]> {
  const h = ix.header;
  const tail = ix.tail;
  const extra = tail?.items ?? [];
  let e = 0;
  if (h) {
    const side = ix.sidecar!;
    const offs = side.f64('offs', 0, h.n);
    const spans = side.u32('spans', 0, h.n);
    const { ids, times } = ix.docs();
    const order = newestFirst(ix);
    for (let i = 0; i < order.length;) {
      // A stretch of slots whose records lie close together in the file: one read.
      let lo = offs[order[i]!]!;
      let hi = lo + spans[order[i]!]!;
      let j = i + 1;
      for (; j < order.length; j++) {
        const s = order[j]!;
        const a = Math.min(lo, offs[s]!);
        const b = Math.max(hi, offs[s]! + spans[s]!);
        if (b - a > STRETCH) break;
        [lo, hi] = [a, b];
      }
      const found = itemsIn(readAt(fd, lo, hi - lo), lo);
      for (; i < j; i++) {
        const s = order[i]!;
        if (tail?.dead.has(s)) continue;
        for (; e < extra.length && newer(extra[e]!, times[s]!, ids[s]!); e++) yield [extra[e]!, tail!.state.isPinned(extra[e]!)];
        yield [checked(found.get(ids[s]!), ids[s]!), ix.slotPinned(s)];
      }
    }
  }
  for (; e < extra.length; e++) yield [extra[e]!, tail!.state.isPinned(extra[e]!)];
}

function newer(it: MemoryItem, time: number, id: number): boolean {
  const t = isoTime(it.ts);
  return t > time || (t === time && it.id > id);
}
