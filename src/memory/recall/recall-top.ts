/**
 * The best k hits of a recall search, kept in a min-heap (worst at the root) so ranking tens of
 * thousands of matching documents costs O(n log k) and no sort of all of them.
 * Order: higher score first; on a tie the newer item (higher time, then higher id).
 */

export interface RankedHit {
  id: number;
  /** final score (relevance × recency) */
  score: number;
  /** the BM25 relevance alone */
  relevance: number;
}

export class TopHits {
  private readonly score: Float64Array;
  private readonly time: Float64Array;
  private readonly id: Float64Array;
  private readonly rel: Float64Array;
  private n = 0;

  constructor(private readonly k: number) {
    this.score = new Float64Array(k);
    this.time = new Float64Array(k);
    this.id = new Float64Array(k);
    this.rel = new Float64Array(k);
  }

  /** The lowest score a hit needs to have a chance (ties may still enter); -Infinity while not full. */
  get floor(): number {
    return this.n < this.k ? -Infinity : this.score[0]!;
  }

  /** Whether a hit with these keys would be kept. */
  admits(score: number, time: number, id: number): boolean {
    if (this.k === 0) return false;
    return this.n < this.k || above(score, time, id, this.score[0]!, this.time[0]!, this.id[0]!);
  }

  /** Adds a hit that `admits` accepted. */
  push(score: number, time: number, id: number, relevance: number): void {
    if (this.n < this.k) {
      let i = this.n++;
      // Sift up: move worse parents down until the new hit's place is found.
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!above(this.score[p]!, this.time[p]!, this.id[p]!, score, time, id)) break;
        this.copy(p, i);
        i = p;
      }
      this.put(i, score, time, id, relevance);
      return;
    }
    // Replace the root (the worst) and sift down.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.n) break;
      const r = l + 1;
      const c = r < this.n && this.beats(l, this.score[r]!, this.time[r]!, this.id[r]!) ? r : l;
      if (!above(score, time, id, this.score[c]!, this.time[c]!, this.id[c]!)) break;
      this.copy(c, i);
      i = c;
    }
    this.put(i, score, time, id, relevance);
  }

  /** The hits, best first. */
  sorted(): RankedHit[] {
    const order = Array.from({ length: this.n }, (_, i) => i);
    order.sort((a, b) => (this.beats(a, this.score[b]!, this.time[b]!, this.id[b]!) ? -1 : 1));
    return order.map((i) => ({ id: this.id[i]!, score: this.score[i]!, relevance: this.rel[i]! }));
  }

  /** Whether entry i ranks above the given keys. */
  private beats(i: number, score: number, time: number, id: number): boolean {
    return above(this.score[i]!, this.time[i]!, this.id[i]!, score, time, id);
  }

  private copy(from: number, to: number): void {
    this.score[to] = this.score[from]!;
    this.time[to] = this.time[from]!;
    this.id[to] = this.id[from]!;
    this.rel[to] = this.rel[from]!;
  }

  private put(i: number, score: number, time: number, id: number, relevance: number): void {
    this.score[i] = score;
    this.time[i] = time;
    this.id[i] = id;
    this.rel[i] = relevance;
  }
}

/** Whether hit 1 ranks above hit 2. */
function above(s1: number, t1: number, i1: number, s2: number, t2: number, i2: number): boolean {
  if (s1 !== s2) return s1 > s2;
  if (t1 !== t2) return t1 > t2;
  return i1 > i2;
}
