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
