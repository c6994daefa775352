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
import { terms } from '../../util/terms';
import { staleAge } from '../../util/time';
import { uidOf } from '../log/identity';
import { isoTime } from '../log/parse';
import type { MemoryItem } from '../types';
import { findDuplicate } from './duplicates';
import { findSuperseded } from './supersede';

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

/** Stale items, oldest first. `items`: the active ones. */
export function findStale(items: readonly MemoryItem[], o: StaleOptions): StaleItem[] {
  const old: Array<{ item: MemoryItem; age: string; time: number }> = [];
  for (const item of items) {
    if (o.isPinned(item)) continue;
    const v = vouched(item);
    const age = staleAge(v.iso, o.now);
    if (age) old.push({ item, age, time: v.time });
  }
  if (old.length === 0) return [];
  const newer = newerFinder(items);
  const out: Array<{ s: StaleItem; time: number }> = [];
  for (const { item, age, time } of old) {
    const recalled = o.recalled.get(uidOf(item));
    const unused = recalled === undefined || staleAge(new Date(recalled).toISOString(), o.now) !== '';
    const by = newer(item);
    if (unused || by) out.push({ s: { item, age, unused, ...(recalled !== undefined && { recalled }), ...(by && { by }) }, time });
  }
  return out.sort((a, b) => a.time - b.time || a.s.item.id - b.s.item.id).map((x) => x.s);
}

/** Written after `b` (time, then id). */
function isNewer(a: MemoryItem, b: MemoryItem): boolean {
  const ta = isoTime(a.ts);
  const tb = isoTime(b.ts);
  return ta > tb || (ta === tb && a.id > b.id);
}

/**
 * For an item, the newest item written after it in its scope that repeats or updates it. Pairs are
 * found by prefix filtering, as duplicates.ts does: with terms ordered rarest first, two sets with
 * Jaccard ≥ ½ share a term among the first |s| − ⌈|s|/2⌉ + 1 of each, and two sets at most one term
 * apart share one among the first two; each pair found is then checked by supersede.ts's own rule
 * (or duplicates.ts's), so the cost is the pairs that share a rare term, not items × items.
 */
function newerFinder(items: readonly MemoryItem[]): (it: MemoryItem) => StaleItem['by'] {
  const sets = items.map((it) => new Set(terms(it.content)));
  const df = new Map<string, number>();
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const byRarity = (a: string, b: string) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const prefixes = sets.map((s) => [...s].sort(byRarity).slice(0, Math.min(s.size, Math.max(s.size - Math.ceil(s.size / 2) + 1, 2))));
  const postings = new Map<string, number[]>();
  prefixes.forEach((p, i) => {
    for (const t of p) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const slot = new Map(items.map((it, i) => [it, i]));
  return (it) => {
    const i = slot.get(it);
    if (i === undefined) return undefined;
    const seen = new Set<number>();
    let best: StaleItem['by'];
    for (const t of prefixes[i]!) {
      for (const j of postings.get(t) ?? []) {
        if (j === i || seen.has(j)) continue;
        seen.add(j);
        const other = items[j]!;
        if ((other.scope ?? '') !== (it.scope ?? '') || !isNewer(other, it)) continue;
        if (best && !isNewer(other, best.item)) continue;
        // `it` is what the newer item would have superseded, had it been a candidate then.
        if (findDuplicate(other, [it])) best = { item: other, how: 'repeated' };
        else if (findSuperseded(other, [it])) best = { item: other, how: 'updated' };
      }
    }
    return best;
  };
}
