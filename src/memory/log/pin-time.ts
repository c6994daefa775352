/**
 * When a pinned item was pinned: [background] keeps the most recently pinned when the pins overflow
 * its budget. The pin record that pins it says when; an item that carries `pinned: true` itself was
 * pinned when it was written, or at its `pinned_at` (compaction folds a pin record into the item
 * and keeps the record's time there, so the order survives it).
 */
import { isoTime } from './parse';
import type { MemoryItem, PinRecord } from '../types';

/** Milliseconds; meaningful only for an item that is pinned. `pins`: per target, the record that decides it. */
export function pinTime(pins: ReadonlyMap<number, PinRecord>, item: MemoryItem): number {
  const p = pins.size ? pins.get(item.id) : undefined;
  if (p?.kind === 'pin') return isoTime(p.ts);
  return ownPinTime(item);
}

/** The time of an item's own `pinned: true`: its `pinned_at` when that is a time, else its own. */
export function ownPinTime(item: MemoryItem): number {
  const at = item.pinned_at;
  const t = typeof at === 'string' ? isoTime(at) : NaN;
  if (Number.isFinite(t)) return t;
  const own = isoTime(item.ts);
  return Number.isFinite(own) ? own : 0;
}

/** Pinned: by the pin or unpin record that decides it (`pin`), else by the item's own `pinned` field. */
export function pinnedBy(pin: Pick<PinRecord, 'kind'> | undefined, item: Pick<MemoryItem, 'pinned'>): boolean {
  return pin ? pin.kind === 'pin' : item.pinned === true;
}

/** When an item was pinned, undefined when it is not (what an edit of it carries over). */
export function pinnedSince(
  state: { isPinned(it: MemoryItem): boolean; pinsByTarget(): ReadonlyMap<number, PinRecord> },
  item: MemoryItem,
): number | undefined {
  return state.isPinned(item) ? pinTime(state.pinsByTarget(), item) : undefined;
}
