/**
 * Reciprocal rank fusion of recall's two rankings, words (BM25 × recency) and meaning (cosine of
 * embeddings): an item's fused score is Σ 1 / (k + rank) over the rankings it is in (ranks from
 * 1), so an item high in either ranking does well and one in both does best, without the two
 * scores, of different scales, ever being compared. Pure.
 */

/** The constant of the original RRF paper: it flattens the head so that rank 1 does not outweigh all else. */
export const RRF_K = 60;

export interface FusedRank {
  id: number;
  /** 1-based rank in the words ranking; null: not in it. */
  wordsRank: number | null;
  /** 1-based rank in the meaning ranking; null: not in it. */
  meaningRank: number | null;
  fused: number;
}

/** Both rankings (ids, best first) fused, best first; ties keep the words ranking's order, then meaning's. */
export function fuseRanks(words: readonly number[], meaning: readonly number[], k = RRF_K): FusedRank[] {
  const byId = new Map<number, FusedRank>();
  const entry = (id: number): FusedRank => {
    let e = byId.get(id);
    if (!e) byId.set(id, (e = { id, wordsRank: null, meaningRank: null, fused: 0 }));
    return e;
  };
  words.forEach((id, i) => {
    const e = entry(id);
    if (e.wordsRank !== null) return; // a repeated id counts once, at its best rank
    e.wordsRank = i + 1;
    e.fused += 1 / (k + i + 1);
  });
  meaning.forEach((id, i) => {
    const e = entry(id);
    if (e.meaningRank !== null) return;
    e.meaningRank = i + 1;
    e.fused += 1 / (k + i + 1);
  });
  const rank = (r: number | null) => r ?? Infinity;
  return [...byId.values()].sort(
    (a, b) => b.fused - a.fused || rank(a.wordsRank) - rank(b.wordsRank) || rank(a.meaningRank) - rank(b.meaningRank) || a.id - b.id,
  );
}
