/**
 * The order [background] tries its candidates in, computed here only (select.ts over a full read,
 * the index's build and walk, the team merge). Received items — another machine's (sync), a
 * teammate's, an import's, an agent's — come after the user's own pins and prefs, so however many
 * arrive they cannot push those out of the block:
 *   own pinned, own pref, received pinned, received pref, then the rest (any origin), newest first.
 * Pinned ones are most recently pinned first within their segment. The index stores the segments
 * with the pinned first (SEGMENTS) so a pinned slot is among its first entries; TRY_ORDER walks them.
 */
import { originOf } from '../origin';
import type { MemoryItem } from '../types';

/** Segments as the index stores them: own pinned, received pinned, own pref, received pref, rest. */
export const SEGMENTS = 5;
/** Segments in the order they are tried. */
export const TRY_ORDER: readonly number[] = [0, 2, 1, 3, 4];

/** Written (or typed) here: no other origin, and not a teammate's (team items carry their author). */
function isOwn(it: Pick<MemoryItem, 'from' | 'via'> & { author?: string }): boolean {
  return it.author === undefined && originOf(it) === 'here';
}

/** The stored segment of a candidate; 0 and 1 are the pinned. */
export function segmentOf(it: MemoryItem & { author?: string }, pinned: boolean): number {
  const received = isOwn(it) ? 0 : 1;
  if (pinned) return received;
  return it.kind === 'pref' ? 2 + received : 4;
}

export function isPinSegment(s: number): boolean {
  return s < 2;
}

/**
 * Candidates (newest first) sorted into the stored segments, each pinned segment most recently
 * pinned first; `pinTimes`: each pinned candidate's pin time. The full-read reference, the team
 * merge and the index build all order [background] with this.
 */
export function intoSegments<T>(
  candidates: Iterable<T>,
  segment: (c: T) => number,
  pinTime: (c: T) => number,
  idOf: (c: T) => number,
): { segs: T[][]; pinTimes: Map<T, number> } {
  const segs: T[][] = Array.from({ length: SEGMENTS }, () => []);
  for (const c of candidates) segs[segment(c)]!.push(c);
  const pinTimes = new Map<T, number>();
  for (let s = 0; s < SEGMENTS; s++) {
    if (!isPinSegment(s)) continue;
    for (const c of segs[s]!) pinTimes.set(c, pinTime(c));
    // Most recently pinned first; the higher id first at the same time.
    if (segs[s]!.length > 1) segs[s]!.sort((a, b) => pinTimes.get(b)! - pinTimes.get(a)! || idOf(b) - idOf(a));
  }
  return { segs, pinTimes };
}
