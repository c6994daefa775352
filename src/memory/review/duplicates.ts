/**
 * "Says the same thing": equal once normalised (case, punctuation, white space), or at least 80 %
 * the same words (Jaccard over words of two letters or more). One candidate against the store is
 * a scan; many at once (an import) use a finder built once, so the cost does not grow with
 * candidates × items.
 */
import type { MemoryItem } from '../types';

/** Jaccard similarity at or above which two items say the same. */
const NEAR = 0.8;

export function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function words(s: string): Set<string> {
  return new Set(
    normalize(s)
      .split(' ')
      .filter((w) => w.length > 1),
  );
}

export function near(w: ReadonlySet<string>, v: ReadonlySet<string>): boolean {
  if (w.size === 0 || v.size === 0) return false;
  let both = 0;
  for (const x of w) if (v.has(x)) both++;
  return both / (w.size + v.size - both) >= NEAR;
}

/** An active item saying the same thing as `c`: the first in `active` order. */
export function findDuplicate(c: { kind?: string; content: string }, active: readonly MemoryItem[]): MemoryItem | undefined {
  const n = normalize(c.content);
  const w = words(c.content);
  for (const item of active) if (normalize(item.content) === n || near(w, words(item.content))) return item;
  return undefined;
}

/**
 * findDuplicate for many candidates against one set of items, with the same answers. Near matches
 * are found by prefix filtering: with words ordered rarest first, two sets whose Jaccard is at
 * least t share a word among the first |s| − ⌈t·|s|⌉ + 1 of each, so only those are indexed and
 * looked up, and each candidate pair is confirmed exactly.
 */
export function duplicateFinder(active: readonly MemoryItem[]): (c: { content: string }) => MemoryItem | undefined {
  const exact = new Map<string, number>();
  const sets = active.map((item, i) => {
    const n = normalize(item.content);
    if (!exact.has(n)) exact.set(n, i);
    return words(item.content);
  });
  const df = new Map<string, number>();
  for (const set of sets) for (const x of set) df.set(x, (df.get(x) ?? 0) + 1);
  const order = (set: ReadonlySet<string>): string[] =>
    [...set].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  const prefix = (set: ReadonlySet<string>): string[] => order(set).slice(0, set.size - Math.ceil(NEAR * set.size) + 1);
  const postings = new Map<string, number[]>();
  sets.forEach((set, i) => {
    if (set.size === 0) return;
    for (const x of prefix(set)) {
      const list = postings.get(x);
      if (list) list.push(i);
      else postings.set(x, [i]);
    }
  });
  return (c) => {
    let best = exact.get(normalize(c.content)) ?? Infinity;
    const w = words(c.content);
    if (w.size > 0) for (const x of prefix(w)) for (const i of postings.get(x) ?? []) if (i < best && near(w, sets[i]!)) best = i;
    return best === Infinity ? undefined : active[best];
  };
}
