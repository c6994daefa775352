/**
 * Posting lists of the recall index: for each term, the slots of the documents that hold it and how
 * often. All lists share two typed arrays, one list after another, so 100k documents cost a few
 * megabytes and no object per list (a Map or array per term is what made a general-purpose index
 * slow and large). A list that fills up moves to the end with twice the room; the arrays are
 * repacked once the space left behind outgrows the space in use.
 */

/** Term frequencies are stored in 16 bits; a term repeated more often than this counts this often. */
const MAX_FREQ = 0xffff;

export class Postings {
  private slotArr = new Int32Array(4096);
  private freqArr = new Uint16Array(4096);
  /** End of the last list: new room is taken from here. */
  private top = 0;
  /** Cells below `top` that belong to no list any more (left behind by a move). */
  private garbage = 0;
  private start = new Int32Array(1024);
  private len = new Int32Array(1024);
  private room = new Int32Array(1024);
  /** Removal epoch at which each list was last cleared of dead slots. */
  private cleanAt = new Uint32Array(1024);
  private count = 0;

  /** Document slots, list after list; re-read after any append (the array may be replaced). */
  get slots(): Int32Array {
    return this.slotArr;
  }
  get freqs(): Uint16Array {
    return this.freqArr;
  }
  get terms(): number {
    return this.count;
  }

  /** A new, empty list; returns its term number. */
  addTerm(epoch: number): number {
    if (this.count === this.start.length) {
      const n = this.count * 2;
      this.start = grow(this.start, n);
      this.len = grow(this.len, n);
      this.room = grow(this.room, n);
      this.cleanAt = grow(this.cleanAt, n);
    }
    const t = this.count++;
    this.start[t] = this.top;
    this.len[t] = 0;
    this.room[t] = 0;
    this.cleanAt[t] = epoch;
    return t;
  }

  append(term: number, slot: number, freq: number): void {
    const n = this.len[term]!;
    if (n === this.room[term]) this.move(term, Math.max(2, n * 2));
    const i = this.start[term]! + n;
    this.slotArr[i] = slot;
    this.freqArr[i] = Math.min(freq, MAX_FREQ);
    this.len[term] = n + 1;
  }

  /** Where the term's list begins in `slots`/`freqs`. */
  begin(term: number): number {
    return this.start[term]!;
  }

  /**
   * The term's list length once dead slots are out of it. Removal only marks a slot dead; a list
   * is cleared the first time a query needs it after a removal, so its length is the live
   * document frequency again and the scoring loop never checks for dead slots.
   */
  clean(term: number, dead: Uint8Array, epoch: number): number {
    let n = this.len[term]!;
    if (this.cleanAt[term] === epoch) return n;
    const s = this.start[term]!;
    const slots = this.slotArr;
    const freqs = this.freqArr;
    let w = s;
    for (let r = s, end = s + n; r < end; r++) {
      const slot = slots[r]!;
      if (dead[slot]) continue;
      slots[w] = slot;
      freqs[w++] = freqs[r]!;
    }
    n = w - s;
    this.len[term] = n;
    this.cleanAt[term] = epoch;
    return n;
  }

  /**
   * Rewrites every list into fresh arrays with no space between them. With `remap` (old slot →
   * new slot, or -1 for dead) slots are renumbered and dead ones dropped, and so are lists left
   * empty: the result then maps old term numbers to new ones (-1: gone). `exact` leaves each list
   * no spare room (a finished build); otherwise each keeps room up to the next power of two, so
   * a build in progress does not move every list again on its next append.
   */
  repack(remap: Int32Array | null, exact: boolean): Int32Array | null {
    let need = 0;
    for (let t = 0; t < this.count; t++) need += exact ? this.len[t]! : roomFor(this.len[t]!);
    const slots = new Int32Array(Math.max(16, exact ? need : need + (need >> 1)));
    const freqs = new Uint16Array(slots.length);
    const terms = remap ? new Int32Array(this.count) : null;
    let top = 0;
    let kept = 0;
    for (let t = 0; t < this.count; t++) {
      const s = this.start[t]!;
      let n = this.len[t]!;
      if (remap) {
        let w = top;
        for (let r = s, end = s + n; r < end; r++) {
          const slot = remap[this.slotArr[r]!]!;
          if (slot < 0) continue;
          slots[w] = slot;
          freqs[w++] = this.freqArr[r]!;
        }
        n = w - top;
      } else {
        slots.set(this.slotArr.subarray(s, s + n), top);
        freqs.set(this.freqArr.subarray(s, s + n), top);
      }
      if (terms && n === 0) {
        terms[t] = -1;
        continue;
      }
      if (terms) terms[t] = kept;
      const room = exact ? n : roomFor(n);
      this.start[kept] = top;
      this.len[kept] = n;
      this.room[kept] = room;
      // Renumbered lists hold no dead slot; otherwise a list is exactly as clean as it was.
      this.cleanAt[kept] = terms ? 0 : this.cleanAt[t]!;
      kept++;
      top += room;
    }
    this.count = kept;
    this.slotArr = slots;
    this.freqArr = freqs;
    this.top = top;
    this.garbage = 0;
    return terms;
  }

  /** Bytes of the typed arrays. */
  bytes(): number {
    return this.slotArr.byteLength + this.freqArr.byteLength + this.start.byteLength * 3 + this.cleanAt.byteLength;
  }

  /** Gives a full list `room` cells at the end of the arrays. */
  private move(term: number, room: number): void {
    if (this.top + room > this.slotArr.length) {
      // Mostly garbage: repacking reclaims it and may leave the list room enough where it is.
      if (this.garbage > this.top >> 1) {
        this.repack(null, false);
        if (this.len[term]! < this.room[term]!) return;
      }
      if (this.top + room > this.slotArr.length) {
        const n = Math.max(this.slotArr.length * 2, this.top + room);
        this.slotArr = grow(this.slotArr, n);
        this.freqArr = grow(this.freqArr, n);
      }
    }
    const s = this.start[term]!;
    const n = this.len[term]!;
    const slots = this.slotArr;
    const freqs = this.freqArr;
    // Most lists are short; a plain loop beats copyWithin's call overhead there.
    if (n < 64) {
      for (let i = 0, to = this.top; i < n; i++) {
        slots[to + i] = slots[s + i]!;
        freqs[to + i] = freqs[s + i]!;
      }
    } else {
      slots.copyWithin(this.top, s, s + n);
      freqs.copyWithin(this.top, s, s + n);
    }
    this.garbage += this.room[term]!;
    this.start[term] = this.top;
    this.room[term] = room;
    this.top += room;
  }
}

function roomFor(n: number): number {
  return n <= 2 ? 2 : 2 ** Math.ceil(Math.log2(n));
}

type Growable =
  Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

/** A copy of `a` with room for `n` elements. */
export function grow<T extends Growable>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
