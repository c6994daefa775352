/**
 * Okapi BM25 × recency over the documents a query's posting lists touch (the index's search), with
 * the same arithmetic as recall-rank.ts's rank() — so the same scores — but best relevance first:
 * a score is never above its relevance, so once a relevance is below the k-th best score nothing
 * after it can enter, and the id and time of only the documents looked at are read from the index.
 */
import { B, K1, recencyFactor, type RecallHit, type SearchOptions } from '../recall/recall-rank';
import { TopHits } from '../recall/recall-top';

export interface LocalLists {
  /**
   * Per query term number: local document numbers and their term frequencies; `df`, the term's live
   * document frequency when the lists hold only some documents (a search given `only`).
   */
  lists: Map<number, { docs: Int32Array | readonly number[]; freqs: ArrayLike<number>; df?: number }>;
  /** Per local document: its length in terms. */
  lens: ArrayLike<number>;
  /** Live documents, and the sum of their lengths. */
  live: number;
  totalLen: number;
  idOf(local: number): number;
  timeOf(local: number): number;
  /**
   * When indexed documents' times never decrease with their slot (a file in time order, the usual
   * case): the slot of a local document, else −1 (the tail's). Of equally relevant indexed
   * documents the newest are then looked at first, and once one cannot enter, the older ones
   * cannot either: they are passed over unread.
   */
  slotOf?: (local: number) => number;
  /** Query term numbers that never match on their own (isWeakTerm): they only add to a match. */
  weak?: ReadonlySet<number>;
  /** Whether a local document is a project item (one that applies here, or `accept` drops it). */
  scoped?: (local: number) => boolean;
}

/**
 * BM25 relevance of every local document, rank()'s arithmetic; 0 for one no query term matches, or
 * only weak terms (numbers, one or two characters): those are added only where a strong term matched.
 */
export function relevances(x: LocalLists, weights: Map<number, number>): Float64Array {
  const acc = new Float64Array(x.lens.length);
  const c1 = K1 * (1 - B);
  const c2 = (K1 * B * x.live) / Math.max(1, x.totalLen);
  const weak = x.weak;
  for (const pass of weak?.size ? [false, true] : [false]) {
    for (const [t, w] of weights) {
      if ((weak?.has(t) ?? false) !== pass) continue;
      const list = x.lists.get(t);
      if (!list) continue;
      const df = list.df ?? list.docs.length;
      const scale = w * idf(x.live, df) * (K1 + 1);
      for (let i = 0; i < list.docs.length; i++) {
        const l = list.docs[i]!;
        if (pass && acc[l] === 0) continue;
        const f = Math.min(list.freqs[i]!, 0xffff);
        acc[l] = acc[l]! + (scale * f) / (f + c1 + c2 * x.lens[l]!);
      }
    }
  }
  return acc;
}

/** Calls `visit` with each document of term `t`'s list and its part of the relevance at weight `w` (relevances()'s arithmetic). */
export function termScores(x: LocalLists, t: number, w: number, visit: (l: number, score: number) => void): void {
  const list = x.lists.get(t);
  if (!list) return;
  const c1 = K1 * (1 - B);
  const c2 = (K1 * B * x.live) / Math.max(1, x.totalLen);
  const scale = w * idf(x.live, list.df ?? list.docs.length) * (K1 + 1);
  for (let i = 0; i < list.docs.length; i++) {
    const l = list.docs[i]!;
    const f = Math.min(list.freqs[i]!, 0xffff);
    visit(l, (scale * f) / (f + c1 + c2 * x.lens[l]!));
  }
}

/** BM25's inverse document frequency of a term in `df` of `live` documents. */
export function idf(live: number, df: number): number {
  return Math.log(1 + (live - df + 0.5) / (df + 0.5));
}

/**
 * The best `opts.limit` by score (`acc`: relevances(x, weights), when already had) (relevance × recency, × `projectBoost` for a project item). A
 * score is never above relevance × boost, so once that is below the k-th best score nothing after
 * it can enter.
 */
export function rankLocal(
  x: LocalLists,
  weights: Map<number, number>,
  opts: SearchOptions,
  acc: Float64Array = relevances(x, weights),
): RecallHit[] {
  const m = x.lens.length;
  const minRel = Math.max(opts.minRelevance ?? 0, Number.MIN_VALUE);
  const only = opts.only;
  const order = new RelevanceOrder(acc, m, minRel, x.slotOf, only && ((l) => only.has(x.idOf(l))));
  let passOver = NaN;
  const top = new TopHits(Math.max(0, Math.min(Math.floor(opts.limit), x.live, m)));
  const scoped = opts.projectBoost !== undefined && opts.projectBoost > 1 ? x.scoped : undefined;
  const boost = scoped ? opts.projectBoost! : 1;
  const favour = opts.favour && opts.favour.factor > 1 ? opts.favour : undefined;
  const most = boost * (favour ? favour.factor : 1);
  for (let l = order.next(); l >= 0; l = order.next()) {
    const rel = acc[l]!;
    if (rel * most < top.floor) break;
    const here = scoped !== undefined && scoped(l);
    // Of equally relevant global items the newest come first: once one cannot enter, the older
    // cannot either — unless a period is favoured, which an older one may be in.
    const indexed = !favour && !opts.within && x.slotOf !== undefined && x.slotOf(l) >= 0 && !here;
    if (indexed && rel === passOver) continue;
    const time = x.timeOf(l);
    if (opts.within && !opts.within(time)) continue;
    const id = x.idOf(l);
    const score = rel * recencyFactor(time, opts.now) * (here ? boost : 1) * (favour?.holds(time) ? favour.factor : 1);
    if (!top.admits(score, time, id)) {
      if (indexed) passOver = rel;
      continue;
    }
    if (opts.accept && !opts.accept(id)) continue;
    top.push(score, time, id, rel);
  }
  return top.sorted();
}

/**
 * The local documents at least `minRel` relevant (and `keep`s), most relevant first; of equal
 * relevance the tail's, then the newest slot, then the lower local number (the order a stable sort
 * gave). A max-heap handed out one at a time: a turn looks at a few dozen of the thousands of
 * documents a query touches, and sorting them all (a closure call per comparison, an array per
 * query) was most of a turn's time and garbage.
 */
class RelevanceOrder {
  private readonly heap: Int32Array;
  private n = 0;

  constructor(
    private readonly acc: Float64Array,
    m: number,
    minRel: number,
    private readonly slotOf: ((local: number) => number) | undefined,
    keep?: (local: number) => boolean,
  ) {
    const takes = (l: number) => acc[l]! >= minRel && (!keep || keep(l));
    let n = 0;
    for (let l = 0; l < m; l++) if (takes(l)) n++;
    this.heap = new Int32Array(n);
    for (let l = 0, i = 0; i < n; l++) if (takes(l)) this.heap[i++] = l;
    this.n = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The next document, or −1 when none is left. */
  next(): number {
    if (this.n === 0) return -1;
    const first = this.heap[0]!;
    this.heap[0] = this.heap[--this.n]!;
    if (this.n > 1) this.down(0);
    return first;
  }

  /** Whether local document a comes before b. */
  private before(a: number, b: number): boolean {
    const acc = this.acc;
    if (acc[a] !== acc[b]) return acc[a]! > acc[b]!;
    const ka = this.tie(a);
    const kb = this.tie(b);
    return ka !== kb ? ka > kb : a < b;
  }

  /** Of equally relevant documents, the higher first: the tail's, then the newest slot. */
  private tie(l: number): number {
    if (!this.slotOf) return 0;
    const s = this.slotOf(l);
    return s < 0 ? Infinity : s;
  }

  private down(i: number): void {
    const heap = this.heap;
    const n = this.n;
    const at = heap[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.before(heap[c + 1]!, heap[c]!)) c++;
      if (!this.before(heap[c]!, at)) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = at;
  }
}

let scratch = new Int32Array(0);

/** A zeroed Int32Array of at least `n` (callers leave it zeroed): base slot → local number + 1. */
export function scratchFor(n: number): Int32Array {
  if (scratch.length < n) scratch = new Int32Array(n);
  return scratch;
}
