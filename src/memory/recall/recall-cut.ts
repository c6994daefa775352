/**
 * How much of a message an item must match to be recalled. Relevance is measured against the
 * message's ideal score: what an item of average length holding each of the message's strong terms
 * once would score (BM25 at tf 1 gives exactly the term's idf). A word no item holds still counts
 * in it, at UNKNOWN_WEIGHT of the idf of a word in no document: the one known word of small talk
 * ("write a haiku about autumn") falls short, while a question with a generic word the store
 * lacks ("how do I lint my code") still reaches its fact. Weak terms (numbers, one or two
 * characters) are not in the ideal: they only add to a match.
 */
import { idf, type LocalLists } from '../index/rank';
import { isEveryday } from './everyday-words';

/** A hit must score at least this fraction of the message's ideal. */
export const IDEAL_CUT = 0.4;

/** A message with up to this many strong words must match IDEAL_CUT of them all; a longer one, less. */
const SHORT_WORDS = 4;

/**
 * The share of its ideal a hit of a message of `strong` strong words must reach: IDEAL_CUT for a
 * short message (small talk stays quiet), less for a long question, whose evidence rarely holds
 * most of its words ("When did Melanie give a speech at a school?" matches on speech and school).
 */
export function idealCut(strong: number): number {
  return IDEAL_CUT * Math.min(1, SHORT_WORDS / Math.max(1, strong));
}

/** How much a message's word that no item holds counts in its ideal score. */
export const UNKNOWN_WEIGHT = 0.5;

/**
 * When more than one item clears the cut, the [recall] budget grows to this many times
 * `memory.recall.maxChars`: a question whose evidence is in several items gets them all, while one
 * match costs no more than before.
 */
const GROWTH = 2;

/** The [recall] budget for a message that `cleared` items clear the cut of. */
export const recallBudget = (maxChars: number, cleared: number) => (cleared > 1 ? maxChars * GROWTH : maxChars);

/** At most this many items in [recall] (`memory.recall.maxItems`'s default). */
export const MAX_ITEMS = 10;

/**
 * A project item's score is multiplied by this: above 1 / recency's floor (0.6), so a project item
 * outranks every global item of equal relevance, however much newer.
 */
export const PROJECT_BOOST = 1.75;

/**
 * A term in more than this many items (3 %: measured on the recall-quality corpus, where 1 % lost
 * project questions resting on one rare-ish word) is too common to be the only word a recall rests on: when
 * the best match holds no other strong term of the message, nothing is recalled.
 */
export const commonAlone = (size: number) => Math.max(20, size * 0.03);

/** What a search found for a query, with what the cut needs. */
export interface QueryCoverage {
  docs: LocalLists;
  weights: Map<number, number>;
  /** The message's ideal score. */
  ideal: number;
  /** Every strong term of the message is too common to rank by (recall.ts's commonOver). */
  allCommon: boolean;
  /** How many strong words the message has (those no item holds included). */
  strong: number;
  /** The message's words left out as too common to rank by (recall.ts's commonOver). */
  dropped?: readonly string[];
  /**
   * Terms related to the message's words, not in it (related-words.ts) → the term of the word they
   * stand in for (−1: in no item): they match, but set no part of the cut.
   */
  related?: ReadonlyMap<number, number>;
  /**
   * Per local document, 1 when it holds a word of `dropped` (read from the index only when asked:
   * the lists of common words are the longest).
   */
  droppedHolders?: () => Uint8Array;
  /** The message's own terms that are everyday words (everyday-words.ts). */
  everyday?: ReadonlySet<number>;
  /** How many of the message's strong words, held by an item or not, are neither everyday nor numbers. */
  plain?: number;
}

/** Why nothing is recalled for a message, when that is so because of its words. */
export type NothingReason = 'no strong word' | 'only common words' | 'one common word' | 'one everyday word';

export interface Coverage {
  ideal: number;
  nothing?: NothingReason;
}

/** Σ weight × idf over the strong terms the lists hold (one no live item holds: × UNKNOWN_WEIGHT). */
export function idealOf(docs: LocalLists, weights: Map<number, number>): number {
  let sum = 0;
  for (const [t, w] of weights) {
    if (docs.weak?.has(t)) continue;
    const list = docs.lists.get(t);
    const df = list ? (list.df ?? list.docs.length) : 0;
    sum += w * idf(docs.live, df) * (df === 0 ? UNKNOWN_WEIGHT : 1);
  }
  return sum;
}

/**
 * `acc`: relevances(found). Whether the message's words allow any recall, and its ideal. `wordsOf`
 * (local document → its terms) lets a word left out as too common count as held by the best match:
 * "Where has Caroline gone camping?" in a conversation where Caroline says half the turns rests on
 * camping and Caroline, not on camping alone.
 */
export function coverageOf(found: QueryCoverage, acc: Float64Array, size: number, wordsOf?: (l: number) => readonly string[]): Coverage {
  const { docs, weights, ideal } = found;
  if (found.allCommon) return { ideal, nothing: 'only common words' };
  let best = -1;
  for (let l = 0; l < acc.length; l++) if (acc[l]! > 0 && (best < 0 || acc[l]! > acc[best]!)) best = l;
  if (best < 0) return { ideal, nothing: 'no strong word' };
  // The strong terms the best match holds.
  let held = 0;
  let df = 0;
  let everyday = false;
  for (const [t] of weights) {
    if (docs.weak?.has(t) || found.related?.has(t)) continue;
    const list = docs.lists.get(t);
    if (!list?.docs.includes(best)) continue;
    held++;
    df = list.df ?? list.docs.length;
    everyday = found.everyday?.has(t) ?? false;
  }
  if (held !== 1 || holdsDropped(found.dropped, best, wordsOf)) return { ideal };
  // One everyday word is what small talk shares with notes ("see you later" → "run htop to see…");
  // a message that also names what the store is full of ("What does Caroline like to eat?") is
  // about it, but not one whose common word is everyday too ("hey, how was your week?").
  const nothing: NothingReason | undefined =
    df > commonAlone(size)
      ? 'one common word'
      : everyday && !found.plain && !found.dropped?.some((w) => !isEveryday(w))
        ? 'one everyday word'
        : undefined;
  // The best match may be a short item saying one word, while another holds two of the message's
  // words ("how do I deploy this service?": "Deploys of this service go through Argo", where
  // "deploy" is left out as common): then the message is about something, and the cut and the
  // ranking (holders of a left-out word first) choose among its matches.
  return nothing && !holdsTwo(found) ? { ideal, nothing } : { ideal };
}

/**
 * Whether some document holds two strong words of the message (its own, not related ones), a word
 * left out as common counting as one.
 */
function holdsTwo(found: QueryCoverage): boolean {
  const seen = new Set<number>();
  const dropped = found.dropped?.length ? found.droppedHolders?.() : undefined;
  for (const [t] of found.weights) {
    if (found.docs.weak?.has(t) || found.related?.has(t)) continue;
    const docs = found.docs.lists.get(t)?.docs ?? [];
    for (const l of docs) if (seen.has(l) || dropped?.[l]) return true;
    for (const l of docs) seen.add(l);
  }
  return false;
}

/** Whether local document `l` holds one of the strong words left out as common. */
function holdsDropped(dropped: readonly string[] | undefined, l: number, wordsOf?: (l: number) => readonly string[]): boolean {
  if (!dropped?.length || !wordsOf) return false;
  const words = new Set(wordsOf(l));
  return dropped.some((w) => words.has(w));
}
