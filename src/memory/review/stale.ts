/**
 * Stale items, for `:memory review --stale`. An active item is stale when it is old — written, or
 * last kept in this review (`confirmed`), more than 90 days ago (util/time.ts's staleAge) — and
 * either
 * - unused: not sent in [recall] in those 90 days (recall-use.ts's record; none: never), or
 * - superseded: a newer item in the same scope says the same (duplicates.ts) or updates it
 *   (supersede.ts: most of its terms, or a short text one term apart).
 * Pinned items are never stale: a pin is the user's standing say-so (unpin one to have it reviewed).
 * Prefs are not spared: an old pref rides in [background] every turn, which is position, not use.
 */
import { staleAge } from '../../util/time';
import { uidOf } from '../log/identity';
import { isoTime } from '../log/parse';
import type { MemoryItem } from '../types';
import { near, normalize, words } from './duplicates';
import { overlap, termSet } from './supersede';

export interface StaleItem {
  item: MemoryItem;
  /** `5 months old`: since it was written or last confirmed. */
  age: string;
  /** When it was last sent in [recall] (ms), if the record has it. */
  recalled?: number;
  /** Not recalled in the last 90 days. */
  unused: boolean;
  /** The newest item that repeats or updates it. */
  by?: { item: MemoryItem; how: 'repeated' | 'updated' };
}

export interface StaleOptions {
  now: Date;
  isPinned(item: MemoryItem): boolean;
  /** uid → when last sent in [recall] (ms): recall-use.ts's readRecallUse. */
  recalled: ReadonlyMap<string, number>;
}

/** When the user last said the item holds: written, or confirmed later (an unreadable `confirmed` is ignored). */
function vouched(it: MemoryItem): { time: number; iso: string } {
  const ts = isoTime(it.ts);
  const c = typeof it.confirmed === 'string' ? isoTime(it.confirmed) : NaN;
  return c > ts ? { time: c, iso: it.confirmed! } : { time: ts, iso: it.ts };
}

/** Pairs looked at per item at most: past them, no link (like supersede.ts, erring towards none). */
const MAX_PAIRS = 200;

/** Stale items, oldest first. `items`: the active ones. */
export function findStale(items: readonly MemoryItem[], o: StaleOptions): StaleItem[] {
  const old: Array<{ i: number; age: string; time: number }> = [];
  items.forEach((item, i) => {
    if (o.isPinned(item)) return;
    const v = vouched(item);
    const age = staleAge(v.iso, o.now);
    if (age) old.push({ i, age, time: v.time });
  });
  if (old.length === 0) return [];
  const newer = newerFinder(items);
  const out: Array<{ s: StaleItem; time: number }> = [];
  for (const { i, age, time } of old) {
    const item = items[i]!;
    const recalled = o.recalled.get(uidOf(item));
    const unused = recalled === undefined || staleAge(new Date(recalled).toISOString(), o.now) !== '';
    const by = newer(i);
    if (unused || by) out.push({ s: { item, age, unused, ...(recalled !== undefined && { recalled }), ...(by && { by }) }, time });
  }
  return out.sort((a, b) => a.time - b.time || a.s.item.id - b.s.item.id).map((x) => x.s);
}

/**
 * For item `i`, the newest item written after it (time, then id) in its scope that repeats it
 * (duplicates.ts) or updates it (supersede.ts). Pairs are found by prefix filtering, as
 * duplicates.ts does: with terms ordered rarest first, two sets with Jaccard ≥ ½ share a term among
 * the first |s| − ⌈|s|/2⌉ + 1 of each, and two sets at most one term apart share one among the first
 * two. Each term's list runs newest first, so a walk down it stops at the first match, or at the
 * first item not newer than the item (or than the match so far); at most MAX_PAIRS are checked.
 */
function newerFinder(items: readonly MemoryItem[]): (i: number) => StaleItem['by'] {
  const time = items.map((it) => isoTime(it.ts));
  const order = items.map((_, i) => i).sort((a, b) => time[b]! - time[a]! || items[b]!.id - items[a]!.id);
  const rank = new Int32Array(items.length);
  order.forEach((i, r) => (rank[i] = r));
  const sets = items.map((it) => termSet(it.content));
  const df = new Map<string, number>();
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const byRarity = (a: string, b: string) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const prefixes = sets.map((s) => [...s].sort(byRarity).slice(0, Math.min(s.size, Math.max(s.size - Math.ceil(s.size / 2) + 1, 2))));
  const postings = new Map<string, number[]>();
  for (const i of order) {
    for (const t of prefixes[i]!) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  }
  // The duplicate check's forms, made when a pair needs them.
  const normal: Array<string | undefined> = [];
  const wordSets: Array<Set<string> | undefined> = [];
  const normalOf = (i: number) => (normal[i] ??= normalize(items[i]!.content));
  const wordsOf = (i: number) => (wordSets[i] ??= words(items[i]!.content));
  const repeats = (i: number, j: number) => normalOf(i) === normalOf(j) || near(wordsOf(i), wordsOf(j));
  return (i) => {
    const scope = items[i]!.scope ?? '';
    let best = -1;
    let how: 'repeated' | 'updated' = 'updated';
    let pairs = 0;
    for (const t of prefixes[i]!) {
      for (const j of postings.get(t)!) {
        if (rank[j]! >= rank[i]! || (best >= 0 && rank[j]! >= rank[best]!)) break;
        if (++pairs > MAX_PAIRS) return best >= 0 ? { item: items[best]!, how } : undefined;
        if ((items[j]!.scope ?? '') !== scope || overlap(sets[j]!, sets[i]!) === 0) continue;
        how = repeats(i, j) ? 'repeated' : 'updated';
        best = j;
        break;
      }
    }
    return best >= 0 ? { item: items[best]!, how } : undefined;
  };
}
