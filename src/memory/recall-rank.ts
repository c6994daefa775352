/**
 * Scoring for the recall index: Okapi BM25 over the posting lists, times a recency factor, best k
 * kept. Term at a time into one reused Float64Array of scores per slot: at 100k items a query with
 * tens of thousands of postings costs about a millisecond and allocates almost nothing.
 */
import { terms } from '../util/terms';
import type { Postings } from './recall-postings';
import { TopHits, type RankedHit } from './recall-top';

/** One part of a query, e.g. the message (weight 1) and the last few turns (0.5). */
export interface QueryPart {
  text: string;
  weight: number;
}

export interface RecallHit extends RankedHit {
  /** final score (relevance × recency) */
  score: number;
  /** the BM25 relevance alone */
  relevance: number;
}

export interface SearchOptions {
  /** ms, for recency */
  now: number;
  /** top-k */
  limit: number;
  /** Hits whose BM25 relevance is below this are dropped (default 0: any match). */
  minRelevance?: number;
  /** Filter (e.g. scope); called only for matching documents that could make the top k. Must not change the index. */
  accept?: (id: number) => boolean;
  /**
   * Leave out query terms found in more than this many documents (a stop list the corpus decides:
   * they weigh little and cost the most), unless every term is that common. Default: none.
   */
  maxDf?: number;
}

/** What recall ranks over: the index of memory.jsonl, or an in-memory RecallIndex. */
export interface RecallSource {
  /** Live documents. */
  readonly size: number;
  search(query: readonly QueryPart[], opts: SearchOptions): RecallHit[];
}

export const K1 = 1.2;
export const B = 0.75;
export const HALF_LIFE_DAYS = 90;
/** The recency factor never drops below this, so an old but clearly relevant item still beats a new weak one. */
const RECENCY_FLOOR = 0.6;
const DAY_MS = 86_400_000;

/** Recency factor in (RECENCY_FLOOR, 1]: 1 for now, its part above the floor halving every HALF_LIFE_DAYS. */
export function recencyFactor(time: number, now: number): number {
  const age = Math.max(0, now - time) / DAY_MS;
  if (!Number.isFinite(age)) return RECENCY_FLOOR;
  return RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 2 ** (-age / HALF_LIFE_DAYS);
}

/** What scoring reads of the index; slots below `used` that are not `dead` are the live documents. */
export interface IndexView {
  post: Postings;
  dead: Uint8Array;
  /** Removal epoch, for Postings.clean. */
  epoch: number;
  ids: Float64Array;
  times: Float64Array;
  lens: Int32Array;
  used: number;
  live: number;
  totalLen: number;
}

/** Term number → its weight in the query: the largest weight of the parts it appears in (unknown terms left out). */
export function queryWeights(dict: ReadonlyMap<string, number>, parts: readonly QueryPart[]): Map<number, number> {
  const weights = new Map<number, number>();
  for (const part of parts) {
    const w = part.weight;
    if (!(w > 0 && Number.isFinite(w))) continue;
    for (const word of terms(part.text)) {
      const t = dict.get(word);
      if (t === undefined) continue;
      const prev = weights.get(t);
      if (prev === undefined || w > prev) weights.set(t, w);
    }
  }
  return weights;
}

/**
 * The best `limit` hits. `acc` (a score per slot, all 0) and `touched` must hold `used` entries;
 * `acc` is all 0 again on return, also when `accept` throws.
 */
export function rank(
  ix: IndexView,
  weights: Map<number, number>,
  opts: SearchOptions,
  acc: Float64Array,
  touched: Int32Array,
): RecallHit[] {
  const { post, lens, live, used } = ix;
  if (opts.maxDf !== undefined) weights = withoutCommon(weights, (t) => post.clean(t, ix.dead, ix.epoch), opts.maxDf);
  let postings = 0;
  for (const t of weights.keys()) postings += post.clean(t, ix.dead, ix.epoch);
  // Few postings: note each document when first touched. Many: a loop without that branch (it is
  // unpredictable, so costly) and one pass over all slots afterwards.
  const sparse = postings < used >> 3;
  // BM25 per term and document: idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen)).
  const c1 = K1 * (1 - B);
  const c2 = (K1 * B * live) / Math.max(1, ix.totalLen);
  const slots = post.slots;
  const freqs = post.freqs;
  let count = 0;
  for (const [t, w] of weights) {
    const df = post.clean(t, ix.dead, ix.epoch);
    const scale = w * Math.log(1 + (live - df + 0.5) / (df + 0.5)) * (K1 + 1);
    const end = post.begin(t) + df;
    if (sparse) {
      for (let i = post.begin(t); i < end; i++) {
        const s = slots[i]!;
        const f = freqs[i]!;
        const a = acc[s]!;
        if (a === 0) touched[count++] = s;
        acc[s] = a + (scale * f) / (f + c1 + c2 * lens[s]!);
      }
    } else {
      for (let i = post.begin(t); i < end; i++) {
        const s = slots[i]!;
        const f = freqs[i]!;
        acc[s] = acc[s]! + (scale * f) / (f + c1 + c2 * lens[s]!);
      }
    }
  }

  const top = new TopHits(Math.min(Math.floor(opts.limit), live));
  const min = opts.minRelevance ?? 0;
  // Every match scores above 0, so the smallest positive number also skips the untouched slots.
  // Recency only lowers a score, so a relevance under the k-th best score cannot make it either.
  let floor = Math.max(min, Number.MIN_VALUE);
  const offer = (s: number, rel: number): void => {
    const time = ix.times[s]!;
    const id = ix.ids[s]!;
    const score = rel * recencyFactor(time, opts.now);
    if (!top.admits(score, time, id) || (opts.accept && !opts.accept(id))) return;
    top.push(score, time, id, rel);
    floor = Math.max(floor, top.floor);
  };
  try {
    if (sparse) {
      for (let i = 0; i < count; i++) {
        const s = touched[i]!;
        const rel = acc[s]!;
        if (rel >= floor) offer(s, rel);
      }
    } else {
      for (let s = 0; s < used; s++) {
        const rel = acc[s]!;
        if (rel >= floor) offer(s, rel);
      }
    }
  } finally {
    if (sparse) for (let i = 0; i < count; i++) acc[touched[i]!] = 0;
    else acc.fill(0, 0, used);
  }
  return top.sorted();
}

function withoutCommon(weights: Map<number, number>, df: (t: number) => number, max: number): Map<number, number> {
  const kept = new Map<number, number>();
  for (const [t, w] of weights) if (df(t) <= max) kept.set(t, w);
  return kept.size > 0 ? kept : weights;
}
