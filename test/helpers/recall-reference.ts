/**
 * The in-memory BM25 recall index aish used before its memory index (src/memory/index/): the same
 * scoring over posting lists held in typed arrays, built from a list of items. Kept here as the
 * reference the index's answers are compared with (test/memory/index-equal.test.ts) and for
 * bench/recall.ts; aish itself ranks through the index.
 */
import { isWeakTerm, terms } from '../../src/util/terms';
import { commonAlone, UNKNOWN_WEIGHT } from '../../src/memory/recall/recall-cut';
import { isEveryday, isPlainWord } from '../../src/memory/recall/everyday-words';
import { grow, Postings } from '../../src/memory/recall/recall-postings';
import {
  B,
  K1,
  queryWeights,
  recencyFactor,
  type QueryPart,
  type RecallHit,
  type SearchOptions,
} from '../../src/memory/recall/recall-rank';
import { TopHits } from '../../src/memory/recall/recall-top';

export { HALF_LIFE_DAYS, recencyFactor, type QueryPart, type RecallHit, type SearchOptions } from '../../src/memory/recall/recall-rank';

/** What scoring reads of the index; slots below `used` that are not `dead` are the live documents. */
interface IndexView {
  post: Postings;
  dead: Uint8Array;
  /** Removal epoch, for Postings.clean. */
  epoch: number;
  ids: Float64Array;
  times: Float64Array;
  lens: Int32Array;
  /** 1: a project item (its score × opts.projectBoost). */
  scoped: Uint8Array;
  used: number;
  live: number;
  totalLen: number;
  /** Term numbers that never match alone. */
  weak: ReadonlySet<number>;
  /** Idf sum of the message's strong words no live item holds. */
  unknownIdf: number;
  /** Term numbers that are everyday words (src/memory/recall/everyday-words.ts). */
  everyday: ReadonlySet<number>;
  /** How many of the message's strong words, held or not, are neither everyday nor numbers. */
  plain: number;
  /** A live document's slot. */
  slot: (id: number) => number;
}

/**
 * The best `limit` hits. `acc` (a score per slot, all 0) and `touched` must hold `used` entries;
 * `acc` is all 0 again on return, also when `accept` throws.
 */
function rank(ix: IndexView, weights: Map<number, number>, opts: SearchOptions, acc: Float64Array, touched: Int32Array): RecallHit[] {
  const { post, lens, live } = ix;
  let allCommon = false;
  let dropped: number[] = [];
  if (opts.maxDf !== undefined) {
    const all = weights;
    weights = withoutCommon(weights, (t) => post.clean(t, ix.dead, ix.epoch), opts.maxDf);
    dropped = [...all.keys()].filter((t) => !weights.has(t) && !ix.weak.has(t));
    const common = [...all.keys()].filter((t) => !weights.has(t) || (weights === all && post.clean(t, ix.dead, ix.epoch) > opts.maxDf!));
    allCommon = common.length > 0 && [...all.keys()].every((t) => ix.weak.has(t) || common.includes(t));
  }
  // BM25 per term and document: idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen)); weak terms
  // (numbers, one or two characters) only where a strong one matched.
  const c1 = K1 * (1 - B);
  const c2 = (K1 * B * live) / Math.max(1, ix.totalLen);
  const slots = post.slots;
  const freqs = post.freqs;
  let count = 0;
  let ideal = ix.unknownIdf;
  // A search (no minCoverage) ranks weak terms like any other.
  const weak = opts.minCoverage === undefined ? new Set<number>() : ix.weak;
  for (const weakPass of [false, true]) {
    for (const [t, w] of weights) {
      if (weak.has(t) !== weakPass) continue;
      const df = post.clean(t, ix.dead, ix.epoch);
      const idf = Math.log(1 + (live - df + 0.5) / (df + 0.5));
      if (!weakPass) ideal += w * idf * (df === 0 ? UNKNOWN_WEIGHT : 1);
      const scale = w * idf * (K1 + 1);
      const end = post.begin(t) + df;
      for (let i = post.begin(t); i < end; i++) {
        const s = slots[i]!;
        const f = freqs[i]!;
        const a = acc[s]!;
        if (a === 0) {
          if (weakPass) continue;
          touched[count++] = s;
        }
        acc[s] = a + (scale * f) / (f + c1 + c2 * lens[s]!);
      }
    }
  }

  const top = new TopHits(Math.min(Math.floor(opts.limit), live));
  let min = Math.max(opts.minRelevance ?? 0, Number.MIN_VALUE);
  const boost = opts.projectBoost !== undefined && opts.projectBoost > 1 ? opts.projectBoost : 1;
  let floor: number;
  const offer = (s: number, rel: number): void => {
    const time = ix.times[s]!;
    const id = ix.ids[s]!;
    const score = rel * recencyFactor(time, opts.now) * (ix.scoped[s] ? boost : 1);
    if (!top.admits(score, time, id) || (opts.accept && !opts.accept(id))) return;
    top.push(score, time, id, rel);
    // A score is never above relevance × boost: below the k-th best score / boost nothing can enter.
    floor = Math.max(min, top.floor / boost);
  };
  try {
    if (opts.minCoverage !== undefined) {
      if (allCommon || count === 0 || bestIsOneWord(ix, weights, acc, touched, count, dropped)) return [];
      min = Math.max(min, ideal * opts.minCoverage);
    }
    floor = min;
    for (let i = 0; i < count; i++) {
      const s = touched[i]!;
      if (acc[s]! >= floor) offer(s, acc[s]!);
    }
  } finally {
    for (let i = 0; i < count; i++) acc[touched[i]!] = 0;
  }
  const hits = top.sorted();
  return opts.minCoverage === undefined ? hits : holdersFirst(ix, hits, dropped);
}

/** As the index's search orders a turn's hits (search-held.ts's holdersFirst), by the slots the left-out terms' lists hold. */
function holdersFirst(ix: IndexView, hits: RecallHit[], dropped: readonly number[]): RecallHit[] {
  if (!dropped.length || hits.length < 2) return hits;
  const lists = dropped.map((t) => {
    const start = ix.post.begin(t);
    return new Set(ix.post.slots.subarray(start, start + ix.post.clean(t, ix.dead, ix.epoch)));
  });
  const counted = hits.map((h) => ({ h, n: lists.filter((l) => l.has(ix.slot(h.id))).length }));
  const out = [...counted.filter((c) => c.n > 0), ...counted.filter((c) => c.n === 0)];
  for (let i = 0; i < out.length;) {
    let j = i + 1;
    while (j < out.length && out[j]!.h.relevance === out[i]!.h.relevance) j++;
    if (j - i > 1) out.splice(i, j - i, ...out.slice(i, j).sort((a, b) => b.n - a.n));
    i = j;
  }
  return out.map((c) => c.h);
}

/**
 * Whether the most relevant document holds one strong term of the query and that term is common, or
 * an everyday word while no word of the query but everyday ones was left out as common; never when
 * some document holds two strong terms (one left out as common counting).
 */
function bestIsOneWord(
  ix: IndexView,
  weights: Map<number, number>,
  acc: Float64Array,
  touched: Int32Array,
  count: number,
  dropped: readonly number[],
): boolean {
  let best = touched[0]!;
  for (let i = 1; i < count; i++) if (acc[touched[i]!]! > acc[best]!) best = touched[i]!;
  let held = 0;
  let df = 0;
  let everyday = false;
  for (const t of weights.keys()) {
    if (ix.weak.has(t)) continue;
    const n = ix.post.clean(t, ix.dead, ix.epoch);
    const start = ix.post.begin(t);
    if (!ix.post.slots.subarray(start, start + n).includes(best)) continue;
    held++;
    df = n;
    everyday = ix.everyday.has(t);
  }
  if (held !== 1 || holdsTwo(ix, weights, dropped)) return false;
  return df > commonAlone(ix.live) || (everyday && ix.plain === 0 && dropped.every((t) => ix.everyday.has(t)));
}

function holdsTwo(ix: IndexView, weights: Map<number, number>, dropped: readonly number[]): boolean {
  const slotsOf = (t: number) => {
    const start = ix.post.begin(t);
    return ix.post.slots.subarray(start, start + ix.post.clean(t, ix.dead, ix.epoch));
  };
  const holdsDropped = new Set(dropped.flatMap((t) => [...slotsOf(t)]));
  const seen = new Set<number>();
  for (const t of weights.keys()) {
    if (ix.weak.has(t)) continue;
    for (const s of slotsOf(t)) if (seen.has(s) || holdsDropped.has(s)) return true;
    for (const s of slotsOf(t)) seen.add(s);
  }
  return false;
}

function withoutCommon(weights: Map<number, number>, df: (t: number) => number, max: number): Map<number, number> {
  const kept = new Map<number, number>();
  for (const [t, w] of weights) if (df(t) <= max) kept.set(t, w);
  return kept.size > 0 ? kept : weights;
}

class SlotTable {
  /** slot + 1 per cell; 0 = empty. Linear probing, at most half full. */
  private cells = new Int32Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id's slot, or -1. */
  get(id: number, ids: Float64Array): number {
    const mask = this.cells.length - 1;
    for (let i = hash(id) & mask; ; i = (i + 1) & mask) {
      const c = this.cells[i]!;
      if (c === 0) return -1;
      if (ids[c - 1] === id) return c - 1;
    }
  }

  /** Records the slot of `ids[slot]`, which must not be in the table yet. */
  insert(slot: number, ids: Float64Array): void {
    if (2 * (this.count + 1) > this.cells.length) this.resize(this.cells.length * 2, ids);
    this.put(slot, ids);
    this.count++;
  }

  delete(id: number, ids: Float64Array): void {
    const cells = this.cells;
    const mask = cells.length - 1;
    let i = hash(id) & mask;
    for (; ; i = (i + 1) & mask) {
      const c = cells[i]!;
      if (c === 0) return;
      if (ids[c - 1] === id) break;
    }
    // Backward-shift deletion: move later members of the probe run into the hole, so no
    // tombstones are needed and lookups stay short.
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const c = cells[j]!;
      if (c === 0) break;
      const home = hash(ids[c - 1]!) & mask;
      // Move c back unless its home lies cyclically in (i, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        cells[i] = c;
        i = j;
      }
    }
    cells[i] = 0;
    this.count--;
  }

  /** Refills the table with the given slots (after the index renumbered them). */
  rebuild(slots: number, ids: Float64Array): void {
    let n = 1024;
    while (n < 2 * slots) n *= 2;
    this.cells = new Int32Array(n);
    for (let s = 0; s < slots; s++) this.put(s, ids);
    this.count = slots;
  }

  bytes(): number {
    return this.cells.byteLength;
  }

  private put(slot: number, ids: Float64Array): void {
    const mask = this.cells.length - 1;
    let i = hash(ids[slot]!) & mask;
    while (this.cells[i] !== 0) i = (i + 1) & mask;
    this.cells[i] = slot + 1;
  }

  private resize(n: number, ids: Float64Array): void {
    const old = this.cells;
    this.cells = new Int32Array(n);
    for (const c of old) if (c !== 0) this.put(c - 1, ids);
  }
}

/**
 * Memory ids are mostly consecutive integers: keeping their low bits in place puts neighbours in
 * neighbouring cells (cache-friendly, and no collisions among them); the higher bits, folded in,
 * still separate ids that differ only there (multiples of a large power of two, ids ≥ 2^32).
 */
function hash(id: number): number {
  const lo = id >>> 0;
  const hi = (id / 4294967296) >>> 0;
  return lo ^ Math.imul(lo >>> 16, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b);
}

export interface RecallDoc {
  id: number;
  text: string;
  /** ms since epoch (the item's ts) */
  time: number;
  /** A project item (ranked first among equals: opts.projectBoost). */
  scoped?: boolean;
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
  private scoped = new Uint8Array(1024);
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
    this.scoped[slot] = doc.scoped ? 1 : 0;
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
    const parts = typeof query === 'string' ? [{ text: query, weight: 1 }] : query;
    const weights = queryWeights(this.dict, parts);
    if (weights.size === 0 || this.size === 0 || !(opts.limit >= 1)) return [];
    const weak = new Set<number>();
    const everyday = new Set<number>();
    let unknownIdf = 0;
    const seen = new Set<string>();
    for (const part of parts)
      for (const w of terms(part.text)) {
        const t = this.dict.get(w);
        if (t !== undefined && isWeakTerm(w)) weak.add(t);
        else if (t !== undefined && isEveryday(w)) everyday.add(t);
        if (t !== undefined || seen.has(w)) continue;
        seen.add(w);
        if (!isWeakTerm(w)) unknownIdf += part.weight * UNKNOWN_WEIGHT * Math.log(1 + (this.size + 0.5) / 0.5);
      }
    const plain = new Set(parts.flatMap((p) => terms(p.text)).filter((w) => !isWeakTerm(w) && isPlainWord(w))).size;
    const view: IndexView = {
      weak,
      unknownIdf,
      everyday,
      plain,
      slot: (id) => this.slotOf.get(id, this.ids),
      scoped: this.scoped,
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
      this.scoped[k] = this.scoped[s]!;
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
    this.scoped = grow(this.scoped, n);
    this.dead = grow(this.dead, n);
  }
}
