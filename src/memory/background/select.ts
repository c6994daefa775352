/**
 * Which memory items go into the [background] block, over items in memory. Pure: no I/O. At run
 * time [background] comes from the index (index/background.ts); this is the rule over a list —
 * the reference the tests compare the index against, and the merge of the few team items.
 */
import { intoSegments, segmentOf, TRY_ORDER } from './background-order';
import { BACKGROUND_HEADER, backgroundLine, fillBlock } from './blocks';
import { ownPinTime } from '../log/pin-time';
import type { MemoryItem } from '../types';

export interface BackgroundOptions {
  maxChars: number;
  isPinned: (item: MemoryItem) => boolean;
  /** When a pinned item was pinned (pin-time.ts): the most recently pinned are tried first. Default: its own pin time. */
  pinTime?: (item: MemoryItem) => number;
  /** The item applies in aish's directory (scope); default: all do. */
  applies?: (item: MemoryItem) => boolean;
  /** For the age old lines show (blocks.ts); default: now. */
  now?: number;
}

export interface BackgroundChoice {
  /** In block order (background-order.ts): own pinned, own pref, received pinned, received pref, the newest others. */
  items: MemoryItem[];
  /** Applied here but did not fit. */
  overBudget: MemoryItem[];
  /** The pinned among them, own first, each most recently pinned first. */
  pinnedLeftOut: MemoryItem[];
  /** Project items of other directories. */
  outOfScope: MemoryItem[];
  /** Characters the pinned items alone need (header included); over maxChars: some pinned are left out. */
  pinnedChars: number;
}

/**
 * In the order of background-order.ts (the user's own pinned, most recently pinned first, and own
 * `pref` items, then received ones the same way, then the rest, each newest first), within
 * `maxChars` counted as the block is rendered (header line included). An item that does not fit
 * is skipped and the next ones are still tried. `items` must be newest first.
 */
export function selectBackground(items: readonly MemoryItem[], opts: BackgroundOptions): BackgroundChoice {
  const outOfScope: MemoryItem[] = [];
  const here: MemoryItem[] = [];
  for (const it of items) (!opts.applies || opts.applies(it) ? here : outOfScope).push(it);
  const { segs, pinTimes } = intoSegments(
    here,
    (it) => segmentOf(it, opts.isPinned(it)),
    opts.pinTime ?? ownPinTime,
    (it) => it.id,
  );
  const now = opts.now ?? Date.now();
  const line = (it: MemoryItem) => backgroundLine(it, now);
  let pinnedChars = pinTimes.size ? BACKGROUND_HEADER.length : 0;
  for (const it of pinTimes.keys()) pinnedChars += line(it).length + 1;
  const tried = TRY_ORDER.map((s) => segs[s]!);
  const { chosen, skipped } = fillBlock(BACKGROUND_HEADER, concat(...tried), opts.maxChars, (it) => it, line);
  const pinnedLeftOut = skipped.filter((it) => pinTimes.has(it));
  return { items: chosen, overBudget: skipped, pinnedLeftOut, outOfScope, pinnedChars };
}

function* concat<T>(...lists: T[][]): Generator<T> {
  for (const l of lists) yield* l;
}

/**
 * [background] on a turn whose [recall] is `recallChars` long: its newest-first filler gives way,
 * the oldest of it first, until both fit in `total` (MemoryBudget.turn); pinned and `pref` items always stay.
 */
export function givingWay(
  items: readonly MemoryItem[],
  recallChars: number,
  total: number,
  isPinned: (it: MemoryItem) => boolean,
  now = Date.now(),
): readonly MemoryItem[] {
  if (recallChars <= 0) return items;
  let used = items.length ? BACKGROUND_HEADER.length : 0;
  for (const it of items) used += backgroundLine(it, now).length + 1;
  const room = total - recallChars;
  if (used <= room) return items;
  const out = [...items];
  for (let i = out.length - 1; i >= 0 && used > room; i--) {
    const it = out[i]!;
    if (it.kind === 'pref' || isPinned(it)) continue;
    used -= backgroundLine(it, now).length + 1;
    out.splice(i, 1);
  }
  return out;
}
