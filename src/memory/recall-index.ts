/**
 * In-memory BM25 index for memory recall: per chat turn, the memory items most relevant to the
 * user's message, with newer items ahead on near-ties (scoring: recall-rank.ts).
 *
 * Everything per document lives in typed arrays indexed by a slot number, the postings in two
 * shared arrays (recall-postings.ts), id → slot in a typed hash table (recall-slots.ts): no object
 * per document or per term besides the term dictionary. A general-purpose index (MiniSearch)
 * measured about 100× slower per query at 100k items, aggregating per-document Maps.
 */
import { terms } from '../util/terms';
import { grow, Postings } from './recall-postings';
import { queryWeights, rank, type IndexView, type QueryPart, type RecallHit, type SearchOptions } from './recall-rank';
import { SlotTable } from './recall-slots';

export { HALF_LIFE_DAYS, recencyFactor, type QueryPart, type RecallHit, type SearchOptions } from './recall-rank';

export interface RecallDoc {
  id: number;
  text: string;
  /** ms since epoch (the item's ts) */
  time: number;
}

export class RecallIndex {
  private readonly dict = new Map<string, number>();
  private dictChars = 0;
  private readonly post = new Postings();
  private readonly slotOf = new SlotTable();
  // Per slot. A removed document's slot stays (dead) until compaction renumbers the live ones.
  private ids = new Float64Array(1024);
  private times = new Float64Array(1024);
  private lens = new Int32Array(1024);
  private dead = new Uint8Array(1024);
  private used = 0;
  private deadCount = 0;
  /** Sum of the live documents' lengths, for the average length. */
  private totalLen = 0;
  /** Bumped by every removal; a posting list cleaned at an older epoch may hold dead slots. */
  private epoch = 0;
  // Scratch for add(): per term, the document it was last seen in and its count there.
  private seenIn = new Int32Array(1024);
  private tf = new Int32Array(1024);
  private addCount = 0;
  private readonly distinct: number[] = [];
  // Search scratch: a score per slot and the slots touched (see rank()).
  private acc = new Float64Array(0);
  private touched = new Int32Array(0);
  private searching = false;

  /** Build from many docs, `chunk` docs at a time, awaiting `pause()` between chunks so a UI stays responsive. */
  static async build(docs: Iterable<RecallDoc>, opts: { chunk?: number; pause?: () => Promise<void> } = {}): Promise<RecallIndex> {
    const chunk = Math.max(1, opts.chunk ?? 2000);
    const pause = opts.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    const index = new RecallIndex();
    let n = 0;
    for (const doc of docs) {
      index.add(doc);
      if (++n % chunk === 0) await pause();
    }
    index.pack();
    return index;
  }

  /** Live documents. */
  get size(): number {
    return this.used - this.deadCount;
  }

  has(id: number): boolean {
    return this.slotOf.get(id, this.ids) >= 0;
  }

  /** Adds a document; re-adding an existing id replaces it. */
  add(doc: RecallDoc): void {
    this.remove(doc.id);
    const words = terms(doc.text);
    if (this.used === this.ids.length) this.growSlots(this.used * 2);
    const slot = this.used++;
    this.ids[slot] = doc.id;
    // A time that is not a number would break the ordering; treat it as very old.
    this.times[slot] = Number.isFinite(doc.time) ? doc.time : 0;
    this.lens[slot] = words.length;
    this.dead[slot] = 0;
    this.slotOf.insert(slot, this.ids);
    this.totalLen += words.length;

    // Count each term once per document, with its frequency, without a Map per document.
    if (++this.addCount === 0x7fffffff) {
      this.seenIn.fill(0);
      this.addCount = 1;
    }
    const stamp = this.addCount;
    const distinct = this.distinct;
    distinct.length = 0;
    for (const w of words) {
      let t = this.dict.get(w);
      if (t === undefined) {
        t = this.post.addTerm(this.epoch);
        this.dict.set(w, t);
        this.dictChars += w.length;
        if (t === this.seenIn.length) {
          this.seenIn = grow(this.seenIn, t * 2);
          this.tf = grow(this.tf, t * 2);
        }
      }
      if (this.seenIn[t] !== stamp) {
        this.seenIn[t] = stamp;
        this.tf[t] = 1;
        distinct.push(t);
      } else this.tf[t]!++;
    }
    for (const t of distinct) this.post.append(t, slot, this.tf[t]!);
  }

  /** Removes a document (no-op for an unknown id). The slot is only marked dead; see compact(). */
  remove(id: number): void {
    const slot = this.slotOf.get(id, this.ids);
    if (slot < 0) return;
    this.slotOf.delete(id, this.ids);
    this.dead[slot] = 1;
    this.deadCount++;
    this.totalLen -= this.lens[slot]!;
    this.epoch++;
    // Dead slots cost memory and a pass in every list that holds them: renumber once they are the
    // majority, which happens after at least as many removals as there are documents (amortized O(1)).
    if (this.deadCount > this.used - this.deadCount) this.compact();
  }

  /** Ranked hits, best first; ties: newer (higher time, then higher id) first. */
  search(query: string | readonly QueryPart[], opts: SearchOptions): RecallHit[] {
    const weights = queryWeights(this.dict, typeof query === 'string' ? [{ text: query, weight: 1 }] : query);
    if (weights.size === 0 || this.size === 0 || !(opts.limit >= 1)) return [];
    const view: IndexView = {
      post: this.post,
      dead: this.dead,
      epoch: this.epoch,
      ids: this.ids,
      times: this.times,
      lens: this.lens,
      used: this.used,
      live: this.size,
      totalLen: this.totalLen,
    };
    // A nested search (from `accept`) must not share the scratch arrays of the one in progress.
    if (this.searching) return rank(view, weights, opts, new Float64Array(this.used), new Int32Array(this.used));
    if (this.acc.length < this.used) {
      this.acc = new Float64Array(this.ids.length);
      this.touched = new Int32Array(this.ids.length);
    }
    this.searching = true;
    try {
      return rank(view, weights, opts, this.acc, this.touched);
    } finally {
      this.searching = false;
    }
  }

  /** Approximate bytes held: the typed arrays plus an estimate for the term dictionary. */
  approxBytes(): number {
    const arrays = [this.ids, this.times, this.lens, this.dead, this.seenIn, this.tf, this.acc, this.touched];
    let bytes = this.post.bytes() + this.slotOf.bytes();
    for (const a of arrays) bytes += a.byteLength;
    // A V8 Map entry costs about 3 words plus its share of the hash table; a short string about 16 bytes + its characters.
    return bytes + this.dict.size * 48 + this.dictChars;
  }

  /** Renumbers the live documents into the first slots and repacks the postings without the dead ones. */
  private compact(): void {
    const remap = new Int32Array(this.used).fill(-1);
    let k = 0;
    for (let s = 0; s < this.used; s++) {
      if (this.dead[s]) continue;
      remap[s] = k;
      this.ids[k] = this.ids[s]!;
      this.times[k] = this.times[s]!;
      this.lens[k] = this.lens[s]!;
      k++;
    }
    this.dead.fill(0);
    this.used = k;
    this.deadCount = 0;
    this.epoch = 0;
    this.slotOf.rebuild(k, this.ids);
    const termMap = this.post.repack(remap, true)!;
    // Terms only removed documents had are forgotten too.
    for (const [w, t] of this.dict) {
      const nt = termMap[t]!;
      if (nt < 0) {
        this.dict.delete(w);
        this.dictChars -= w.length;
      } else this.dict.set(w, nt);
    }
  }

  /** After a build: dead slots out, postings without spare room. */
  private pack(): void {
    if (this.deadCount > 0) this.compact();
    else this.post.repack(null, true);
  }

  private growSlots(n: number): void {
    this.ids = grow(this.ids, n);
    this.times = grow(this.times, n);
    this.lens = grow(this.lens, n);
    this.dead = grow(this.dead, n);
  }
}
