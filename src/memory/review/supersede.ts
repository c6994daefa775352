/**
 * A candidate that updates or contradicts an active item ("uses Node 18 in CI" → "uses Node 20 in
 * CI"): most of its terms are the item's, but it does not say the same thing (findDuplicate).
 * Lexical only, so it errs on the side of not matching: keeping a superseding candidate forgets
 * the old item, and the review shows both before asking.
 */
import { terms } from '../../util/terms';
import { findDuplicate } from './duplicates';
import type { MemoryItem, MemoryKind } from '../types';

/** Jaccard of distinct terms at or above this (with ≥ 2 shared) is "about the same thing". */
const MIN_OVERLAP = 0.5;

/**
 * Words too general to show two short texts are about the same thing: "use vim" and "use docker"
 * share "use" but neither updates the other. (terms() has already dropped stop words.)
 */
const GENERIC = new Set(
  'use want need work run always never usually often also get make go set thing stuff project user good new old'.split(' '),
);

export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}

/**
 * How much `a` and `b` overlap, or 0 when they are not about the same thing: Jaccard ≥ 0.5 with at
 * least 2 shared terms; or short texts that differ in one term each ("editor vim" / "editor
 * emacs"), provided what they share is not only a generic word.
 */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  let specific = 0;
  for (const t of a) {
    if (!b.has(t)) continue;
    shared++;
    if (!GENERIC.has(t)) specific++;
  }
  if (shared === 0) return 0;
  const jaccard = shared / (a.size + b.size - shared);
  if (shared >= 2 && specific >= 1 && jaccard >= MIN_OVERLAP) return jaccard;
  const oneApart = a.size - shared <= 1 && b.size - shared <= 1;
  return oneApart && specific >= 1 ? jaccard : 0;
}

/** The active item in the same scope that `c` best updates, if any (ties: the newest, as `active` is newest first). */
export function findSuperseded(
  c: { kind: MemoryKind; content: string; scope?: string },
  active: readonly MemoryItem[],
): MemoryItem | undefined {
  const mine = termSet(c.content);
  if (mine.size === 0) return undefined;
  let best: MemoryItem | undefined;
  let bestScore = 0;
  for (const item of active) {
    if ((item.scope ?? '') !== (c.scope ?? '')) continue;
    const score = overlap(mine, termSet(item.content));
    if (score <= bestScore) continue;
    // Saying the same thing is a duplicate, not an update.
    if (findDuplicate(c, [item])) continue;
    best = item;
    bestScore = score;
  }
  return best;
}
