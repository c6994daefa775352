/**
 * memory.jsonl seen through an index file as it is: what the readers need (ids, times, pins, items
 * by offset, the tail appended since), without reading the file and without building an index —
 * memory-index.ts adds the build, so a reader that never builds (`aish memory list --json`) loads
 * none of it. memory.jsonl stays the only source of truth: the index is checked against it on every
 * use (FileCursor: device, inode, size, mtime, ctime, the bytes before its offset), what was
 * appended since is laid over it (tail.ts), and anything else needs a rebuild. Items themselves are
 * always read from memory.jsonl, by offset, and checked.
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { pinnedBy } from '../log/pin-time';
import type { MemoryItem } from '../types';
import { withUid } from '../log/uid-copies';
import { givenUids, itemIn } from './record-read';
import { crcOf, ORDER_ENTRY, RACY_MS, type IndexHeader } from './layout';
import { readAt } from '../../util/fs-safe';
import { CorruptIndex, settleSidecar, Sidecar } from './sidecar';
import { readTail, statKey, tailSkipped, type Tail } from './tail';

/** Ids and times read one at a time before the whole arrays are read instead. */
const SINGLE_READS = 1024;

export interface IndexCounts extends Pick<IndexHeader, 'unreadable' | 'keptAsIs' | 'dangling' | 'maxId'> {
  /** Active items. */
  total: number;
}

/** An index file read as it is, never built (memory-index.ts: the index that builds itself when it must). */
export class IndexReader {
  protected side: Sidecar | null = null;
  protected tailValue: Tail | null = null;
  private idsArr: Float64Array | null = null;
  private timesArr: Float64Array | null = null;
  private lensArr: Int32Array | null = null;
  private linesArr: Uint32Array | null = null;
  private singles = 0;
  /** id → slot of ids read one at a time. */
  private readonly known = new Map<number, number>();
  private readonly cache = new Map<number, MemoryItem>();
  private pinnedSet: Set<number> | null = null;
  /** id → the uid a copied line's item was given (section `cuid`), read on first need. */
  private givenUids: Map<number, string> | null = null;
  /** memory.jsonl, open for reading items by offset while the index is in step with it. */
  private fd: number | null = null;

  constructor(readonly path: string) {}

  /** Bring the reader in step with memory.jsonl without building: the index file as it is, or a new tail; false: only a rebuild would. */
  refresh(): boolean {
    return this.againIfDamaged(() => this.inStep() || this.drop());
  }

  /** `step`; when it finds the index damaged, the index is dropped and `step` run again, once: a second failure is memory.jsonl's own. */
  protected againIfDamaged(step: () => boolean): boolean {
    try {
      return step();
    } catch (err) {
      if (!(err instanceof CorruptIndex)) throw err;
      this.drop();
      return step();
    }
  }

  /** In step: the index as it is, or with the tail appended since (none and no file: empty); false: it needs a rebuild. */
  protected inStep(): boolean {
    if (this.tailValue && this.side && this.unchanged()) return true;
    this.side ??= Sidecar.open(this.path);
    if (this.side && !this.settled(this.side.header)) this.drop();
    if (this.side) {
      const r = readTail(this.path, this.side, (id) => this.slotOf(id));
      if (r.kind === 'tail') {
        this.tailValue = r.tail;
        return true;
      }
      if (r.kind === 'missing') return this.empty();
    } else if (!existsSync(this.path)) return this.empty();
    return false;
  }

  /**
   * An index built racily (racyCrc) is used only while the bytes it covers are the same. Once they
   * are checked with the file's last change RACY_MS in the past, they are as a build then would have
   * read them: the index is written again without racyCrc, and later starts trust its timestamps.
   */
  private settled(h: IndexHeader): boolean {
    if (h.racyCrc === undefined) return true;
    const checkedAt = Date.now();
    try {
      if (crcOf(this.path, h.file.offset) !== h.racyCrc) return false;
    } catch {
      return false;
    }
    if (Math.max(h.file.mtime, h.file.ctime) < checkedAt - RACY_MS) {
      settleSidecar(this.path, h);
      // This reader's header is settled too: a later change (an append read as the tail) is not
      // checksummed, nor the index copied, again.
      delete h.racyCrc;
    }
    return true;
  }

  private unchanged(): boolean {
    try {
      return statKey(statSync(this.path)) === this.tailValue!.stat;
    } catch {
      return false;
    }
  }

  protected empty(): true {
    this.drop();
    return true;
  }

  protected drop(): false {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.side?.close();
    this.side = null;
    this.idsArr = null;
    this.timesArr = null;
    this.lensArr = null;
    this.linesArr = null;
    this.pinnedSet = null;
    this.givenUids = null;
    this.known.clear();
    this.tailValue = null;
    this.cache.clear();
    return false;
  }

  get header(): IndexHeader | null {
    return this.side?.header ?? null;
  }

  get tail(): Tail | null {
    return this.tailValue;
  }

  get sidecar(): Sidecar | null {
    return this.side;
  }

  counts(): IndexCounts {
    const h = this.side?.header;
    const t = this.tailValue;
    if (!h) return { total: 0, unreadable: 0, keptAsIs: 0, dangling: [], maxId: 0 };
    const ts = t ? tailSkipped(t) : { unreadable: 0, keptAsIs: 0 };
    return {
      total: this.size,
      unreadable: h.unreadable + ts.unreadable,
      keptAsIs: h.keptAsIs + ts.keptAsIs,
      // A tail's tombstones all name an item (readTail rebuilds otherwise): only the index's can dangle.
      dangling: h.dangling,
      maxId: Math.max(h.maxId, t?.state.maxId ?? 0),
    };
  }

  /** Active items. */
  get size(): number {
    const h = this.side?.header;
    if (!h) return 0;
    const t = this.tailValue;
    return h.n - (t?.dead.size ?? 0) + (t?.items.length ?? 0);
  }

  /** Per-document arrays, read whole on first need (recall, lookups by id). */
  docs(): { ids: Float64Array; times: Float64Array; lens: Int32Array } {
    return { ids: this.ids(), times: this.times(), lens: this.lens() };
  }

  ids(): Float64Array {
    return (this.idsArr ??= this.side!.f64('ids', 0, this.side!.header.n));
  }

  times(): Float64Array {
    return (this.timesArr ??= this.side!.f64('times', 0, this.side!.header.n));
  }

  lens(): Int32Array {
    return (this.lensArr ??= new Int32Array(this.side!.range('lens', 0, this.side!.header.n, 4)));
  }

  /** The id in a slot, read alone unless all are at hand (remembered, so a lookup by that id needs no search). */
  idAt(slot: number): number {
    // Past a few hundred single reads, one read of the whole array is cheaper.
    if (this.idsArr || ++this.singles > SINGLE_READS) return this.ids()[slot]!;
    const id = this.side!.f64('ids', slot, 1)[0]!;
    if (this.known.size > 100_000) this.known.clear();
    this.known.set(id, slot);
    return id;
  }

  /** A slot's [background] line length and scope number (0: none), without reading its record. */
  lineAt(slot: number): [len: number, scope: number] {
    const all = (this.linesArr ??= this.singles > SINGLE_READS ? this.side!.u32('lines', 0, this.side!.header.n * 2) : null);
    if (all) return [all[slot * 2]!, all[slot * 2 + 1]!];
    this.singles++;
    const one = this.side!.u32('lines', slot * 2, 2);
    return [one[0]!, one[1]!];
  }

  timeAt(slot: number): number {
    if (this.timesArr || ++this.singles > SINGLE_READS) return this.times()[slot]!;
    return this.side!.f64('times', slot, 1)[0]!;
  }

  /** The slot of an indexed item by id (binary search: slots are in id order), -1 when none. */
  slotOf(id: number): number {
    if (!this.side) return -1;
    const hint = this.known.get(id);
    if (hint !== undefined) return hint;
    const ids = this.ids();
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The active item with this id, or undefined. */
  get(id: number): MemoryItem | undefined {
    const t = this.tailValue;
    const fromTail = t?.state.get(id);
    if (fromTail) return fromTail;
    const s = this.slotOf(id);
    if (s < 0 || t?.dead.has(s)) return undefined;
    // Read before: no offset or span is read for it (a turn asks for the same hits several times).
    const hit = this.cache.get(id);
    if (hit) return hit;
    const pos = this.side!.f64('offs', s, 1)[0]!;
    const span = this.side!.u32('spans', s, 1)[0]!;
    return this.itemAt(id, pos, span);
  }

  /** The indexed item in a slot (forgotten or not), read from memory.jsonl. */
  itemBySlot(slot: number): MemoryItem {
    const s = this.side!;
    return this.itemAt(s.f64('ids', slot, 1)[0]!, s.f64('offs', slot, 1)[0]!, s.u32('spans', slot, 1)[0]!);
  }

  /** Pinned, with the tail's pin records over the index's. */
  isPinned(item: MemoryItem): boolean {
    const t = this.tailValue;
    if (t?.state.get(item.id)) return t.state.isPinned(item);
    const s = this.slotOf(item.id);
    return s >= 0 ? this.slotPinned(s) : pinnedBy(undefined, item);
  }

  /** Whether an indexed item is pinned: the tail's pin record, else the index's. */
  slotPinned(slot: number): boolean {
    return this.tailValue?.pins.get(slot) ?? this.pinnedSlots().has(slot);
  }

  /** Slots pinned when the index was built: `order` starts with them (its first `pinned` entries). */
  private pinnedSlots(): Set<number> {
    if (this.pinnedSet) return this.pinnedSet;
    const n = this.side!.header.pinned;
    const u = new Uint32Array(this.side!.range('order', 0, n, ORDER_ENTRY));
    const set = new Set<number>();
    for (let i = 0; i < n; i++) set.add(u[i * (ORDER_ENTRY / 4)]!);
    return (this.pinnedSet = set);
  }

  /** The record of an indexed item, read from memory.jsonl by offset and checked to be that item. */
  itemAt(id: number, pos: number, span: number): MemoryItem {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const read = itemIn(readAt(this.file(), pos, span), pos, id);
    const uid = this.side!.header.copies > 0 ? (this.givenUids ??= givenUids(this.side!)).get(id) : undefined;
    const found = uid === undefined ? read : withUid(read, uid);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, found);
    return found;
  }

  /** memory.jsonl, open for reading items by offset. */
  file(): number {
    return (this.fd ??= openSync(this.path, 'r'));
  }

  close(): void {
    this.drop();
  }
}
