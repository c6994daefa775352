/** Which memory items go into the [background] block. Pure: no I/O. */
import { BACKGROUND_HEADER, backgroundLine, fillBlock } from './blocks';
import type { MemoryItem } from './types';

const DAY_MS = 86_400_000;

export interface BackgroundOptions {
  maxChars: number;
  isPinned: (item: MemoryItem) => boolean;
  /** The item applies in aish's directory (scope); default: all do. */
  applies?: (item: MemoryItem) => boolean;
}

export interface BackgroundChoice {
  /** In block order: pinned, then pref, then the newest others. */
  items: MemoryItem[];
  /** Applied here but did not fit. */
  overBudget: MemoryItem[];
  /** Project items of other directories. */
  outOfScope: MemoryItem[];
  /** Characters the pinned items alone need (header included); over maxChars: some pinned are left out. */
  pinnedChars: number;
}

/**
 * Pinned items first, then `pref` items, then the rest, each group newest first, within
 * `maxChars` counted as the block is rendered (header line included). An item that does not fit
 * is skipped and the next ones are still tried. `items` must be newest first.
 */
export function selectBackground(items: readonly MemoryItem[], opts: BackgroundOptions): BackgroundChoice {
  const outOfScope: MemoryItem[] = [];
  const pinned: MemoryItem[] = [];
  const prefs: MemoryItem[] = [];
  const rest: MemoryItem[] = [];
  for (const it of items) {
    if (opts.applies && !opts.applies(it)) outOfScope.push(it);
    else if (opts.isPinned(it)) pinned.push(it);
    else if (it.kind === 'pref') prefs.push(it);
    else rest.push(it);
  }
  let pinnedChars = pinned.length ? BACKGROUND_HEADER.length : 0;
  for (const it of pinned) pinnedChars += backgroundLine(it).length + 1;
  const { chosen, skipped } = fillBlock(BACKGROUND_HEADER, concat(pinned, prefs, rest), opts.maxChars, (it) => it, backgroundLine);
  return { items: chosen, overBudget: skipped, outOfScope, pinnedChars };
}

function* concat<T>(...lists: T[][]): Generator<T> {
  for (const l of lists) yield* l;
}

/** The ids of what `selectBackground` picks, for listings. */
export function backgroundIds(items: readonly MemoryItem[], opts: BackgroundOptions): Set<number> {
  return new Set(selectBackground(items, opts).items.map((i) => i.id));
}

/** Items older than `days` at `now`; unset days means never prune. */
export function itemsToPrune(items: readonly MemoryItem[], days: number | undefined, now: Date): MemoryItem[] {
  if (days === undefined) return [];
  const cutoff = now.getTime() - days * DAY_MS;
  return items.filter((it) => Date.parse(it.ts) < cutoff);
}
