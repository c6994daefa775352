/**
 * What recall's ranking shares (memory/index/rank.ts and search.ts do the ranking): the query's
 * parts and their weights, Okapi BM25's constants, the recency factor, and the shapes of a hit.
 */
import { terms } from '../../util/terms';
import type { RankedHit } from './recall-top';

/** One part of a query, e.g. the message (weight 1) and the last few turns (0.5). */
export interface QueryPart {
  text: string;
  weight: number;
}

export type RecallHit = RankedHit;

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
   * When given, only these ids can be hits (`accept` must still say so): they are picked out before
   * ranking, so a re-rank of a few hits does not walk every document the query's words touch.
   */
  only?: { has(id: number): boolean; keys(): Iterable<number> };
  /**
   * The hits are only a set to be ranked again (by the earlier turns): they are not put in order
   * of which hold a word left out as too common, which reads each of them. Default: they are.
   */
  reRanked?: boolean;
  /**
   * Leave out query terms found in more than this many documents (a stop list the corpus decides:
   * they weigh little and cost the most), unless every term is that common. Default: none.
   */
  maxDf?: number;
  /**
   * Hits below this fraction of the message's ideal score (what an item holding each of its
   * strong terms once would score) are dropped, and so is everything when the best match is one
   * common word (recall.ts). Default: neither.
   */
  minCoverage?: number;
  /** A project item's score is multiplied by this (> 1: here first). Default 1. */
  projectBoost?: number;
  /** Also match words related to the query's (related-words.ts), below them. Default: off. */
  related?: boolean;
  /** Items written in the period a message names score `factor` (> 1) times more (recall-time.ts). */
  favour?: TimeFavour;
  /** Only items whose time (ms; 0: unknown) this holds for (recall-time.ts's withinPeriod). */
  within?: (time: number) => boolean;
}

/** What a message's time words favour: items whose time `holds`. */
export interface TimeFavour {
  factor: number;
  holds: (time: number) => boolean;
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
