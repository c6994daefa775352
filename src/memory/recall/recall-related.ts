/**
 * Related words in a turn's ranking (the table: related-words.ts). The index's search (search.ts)
 * adds the related terms it holds to the query's, and ranks with relevancesOf: a related word stands
 * in for a word of the message that an item lacks, below it, and never sets the cut.
 */
import { isWeakTerm, terms } from '../../util/terms';
import { relevances, termScores } from '../index/rank';
import type { QueryCoverage } from './recall-cut';
import type { QueryPart } from './recall-rank';
import { MAX_RELATED, RELATED_WEIGHT, relatedTerms } from './related-words';

export interface RelatedTerm {
  /** Its weight in the query: RELATED_WEIGHT of its word's part. */
  weight: number;
  /** The term number of the word it stands in for; −1 when no item holds that word. */
  source: number;
}

/**
 * Terms related to the query's strong words, not in the query, that `dfOf` (a term's live document
 * frequency) finds in 1 to `over` items, at most MAX_RELATED per word: each is given a term number by
 * `add`. Returns term number → what it stands in for.
 */
export function relatedOf(
  query: readonly QueryPart[],
  dict: ReadonlyMap<string, number>,
  dfOf: (term: string) => number,
  add: (term: string) => number,
  over: number,
): Map<number, RelatedTerm> {
  const out = new Map<number, RelatedTerm>();
  const asked = new Set<string>();
  for (const part of query) for (const w of terms(part.text)) asked.add(w);
  const tried = new Set<string>();
  for (const part of query) {
    for (const w of new Set(terms(part.text))) {
      if (isWeakTerm(w)) continue;
      let n = 0;
      for (const r of relatedTerms(w)) {
        if (n >= MAX_RELATED) break;
        if (asked.has(r) || tried.has(r)) continue;
        tried.add(r);
        const df = dfOf(r);
        if (df === 0 || df > over) continue;
        out.set(add(r), { weight: part.weight * RELATED_WEIGHT, source: dict.get(w) ?? -1 });
        n++;
      }
    }
  }
  return out;
}

/**
 * Every local document's relevance (`acc`), and its relevance by the message's own words alone
 * (`exact`): related words reach items, but whether the message is about anything at all is its
 * own words' to say (coverageOf).
 */
export function relevancesOf(found: QueryCoverage): { acc: Float64Array; exact: Float64Array } {
  const rel = found.related;
  if (!rel?.size) {
    const acc = relevances(found.docs, found.weights);
    return { acc, exact: acc };
  }
  const exact = relevances(found.docs, new Map([...found.weights].filter(([t]) => !rel.has(t))));
  const acc = Float64Array.from(exact);
  // A related word stands in for its word: it adds to an item that lacks the word, and of a word's
  // related words only the best counts ("tent" does not lift an item that says "camping").
  const bySource = new Map<number, number[]>();
  for (const [t, src] of rel) bySource.set(src, [...(bySource.get(src) ?? []), t]);
  const best = new Float64Array(acc.length);
  const holds = new Uint8Array(acc.length);
  for (const [src, ts] of bySource) {
    const own = src >= 0 ? (found.docs.lists.get(src)?.docs ?? []) : [];
    for (const l of own) holds[l] = 1;
    const touched: number[] = [];
    for (const t of ts) {
      termScores(found.docs, t, found.weights.get(t)!, (l, score) => {
        if (holds[l] || score <= best[l]!) return;
        if (best[l] === 0) touched.push(l);
        best[l] = score;
      });
    }
    for (const l of touched) {
      acc[l] = acc[l]! + best[l]!;
      best[l] = 0;
    }
    for (const l of own) holds[l] = 0;
  }
  return { acc, exact };
}
