/**
 * The first record of memory.jsonl to have each uid, to find later ones that repeat it (a line
 * copied by hand, with or without a new id). An open-addressing table of record numbers keyed by a
 * hash: a Map of a million uid strings would cost several times the memory. A record without a uid
 * stands for the uid derived from its kind, time, text, scope and target (identity.ts), so it is
 * keyed and compared by those fields, and nothing is derived while reading.
 *
 * The later record keeps what it says and gets a uid made from the one it repeats and its own id
 * (identity.ts copyUid): never merged with the first or dropped, and the same in every reader, so
 * a forget or a sync of one never reaches the other. Only the lines above decide, so a reader of
 * the whole file and one that reads on from where it stopped agree. An item pasted back below its
 * own tombstone keeps its uid: it is the forgotten item, which sync forgets again.
 */
import { copyUid, uidOf, type AnyRecord } from './identity';

export interface UidRecord extends AnyRecord {
  id: number;
}

const ownUid = (r: UidRecord): string | undefined => (typeof r.uid === 'string' && r.uid !== '' ? r.uid : undefined);

/**
 * A few characters and numbers, mixed (FNV-1a steps, then murmur3's finaliser: the table uses the
 * low bits). Not every character: this runs once per record, and at 1M records hashing whole texts
 * cost a third of the read. A uid's last 12 characters are its random part (a monotonic ULID counts
 * up in its last ones); an old record's time (`time`, already parsed), text length and last 6
 * characters tell copies from the rest, which are then compared in full.
 */
function keyHash(r: UidRecord, own: string | undefined, time: number): number {
  let h = 0x811c9dc5;
  const s = own ?? r.content ?? '';
  for (let i = Math.max(0, s.length - (own === undefined ? 6 : 12)); i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  if (own === undefined) {
    h = Math.imul(h ^ s.length, 0x01000193);
    h = Math.imul(h ^ (time | 0), 0x01000193);
    h = Math.imul(h ^ ((time / 4294967296) | 0), 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Both stand for one uid: the same own uid, or (neither has one) the same derived one. */
function sameUid(a: UidRecord, b: UidRecord, own: string | undefined): boolean {
  const other = ownUid(b);
  if (own !== undefined || other !== undefined) return own === other;
  return a.ts === b.ts && a.kind === b.kind && a.content === b.content && a.scope === b.scope && a.target === b.target;
}

/** `r` with the uid it was given in place of the one it repeats, right after its id (as every reader shows it). */
export function withUid<T extends UidRecord>(r: T, uid: string): T {
  const { id, uid: _repeated, ...rest } = r;
  return { id, uid, ...rest } as unknown as T;
}

export class UidCopies {
  /** Record number + 1 per slot; 0: empty. */
  private slots = new Int32Array(1024);
  private readonly recs: UidRecord[] = [];
  /** Each remembered record's hash, so growing the table reads no record. */
  private hashes = new Uint32Array(512);
  /** id → the uid an item was given as a copy: the index keeps these beside the line (its section `cuid`). */
  private readonly given = new Map<number, string>();

  givenUid(id: number): string | undefined {
    return this.given.get(id);
  }

  /**
   * `r` as it is when it is the first with its uid (remembered), else with a uid of its own, and
   * the first's id. `time`: `r.ts` parsed (NaN for a forget or pin record).
   */
  adopt<T extends UidRecord>(r: T, time: number, forgotten: (id: number) => boolean): [T, number | undefined] {
    const first = this.see(r, time);
    if (!first) return [r, undefined];
    // An item forgotten above it, pasted back: it is that item brought back (a sync forgets it
    // again), not reported — an index, which holds only active items, could not tell.
    if (r.content !== undefined && forgotten(first.id)) return [r, first.id];
    const uid = copyUid(r, uidOf(first));
    if (r.content !== undefined) this.given.set(r.id, uid);
    return [withUid(r, uid), first.id];
  }

  /** The earlier record `r`'s uid belongs to; undefined when it is the first (it is then remembered). */
  private see(r: UidRecord, time: number): UidRecord | undefined {
    const own = ownUid(r);
    // Two forget or pin records that say the same thing without a uid mean the same thing: one copy is harmless.
    if (own === undefined && r.content === undefined) return undefined;
    const h = keyHash(r, own, time);
    const mask = this.slots.length - 1;
    let i = h & mask;
    for (let v = this.slots[i]!; v !== 0; i = (i + 1) & mask, v = this.slots[i]!) {
      if (this.hashes[v - 1] !== h) continue;
      const first = this.recs[v - 1]!;
      if (sameUid(r, first, own)) return first;
    }
    const n = this.recs.push(r);
    if (n > this.hashes.length) {
      const more = new Uint32Array(this.hashes.length * 2);
      more.set(this.hashes);
      this.hashes = more;
    }
    this.hashes[n - 1] = h;
    this.slots[i] = n;
    if (n * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    return undefined;
  }

  /** Forget what `r` left (a provisional read rolled back): a uid it was given, or `r` if it was remembered last. */
  dropLast(r: UidRecord): void {
    this.given.delete(r.id);
    const n = this.recs.length;
    if (n === 0 || this.recs[n - 1] !== r) return;
    const mask = this.slots.length - 1;
    // Linear probing: the newest entry has nothing probed past it, so emptying its slot is safe.
    for (let i = this.hashes[n - 1]! & mask; this.slots[i] !== 0; i = (i + 1) & mask) {
      if (this.slots[i] === n) {
        this.slots[i] = 0;
        break;
      }
    }
    this.recs.pop();
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < this.recs.length; k++) {
      let i = this.hashes[k]! & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = k + 1;
    }
    this.slots = slots;
  }
}

/** The report of a record given a uid of its own (`first`: the line of the record whose uid it repeats). */
export function copyReason(r: UidRecord, first: number): string {
  const what = r.kind === 'forget' || r.kind === 'pin' || r.kind === 'unpin' ? 'a record' : 'an item';
  return `same uid as line ${first} (a copied line?) — kept as ${what} of its own, uid ${String(r.uid)}`;
}
