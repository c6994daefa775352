/**
 * The in-memory view of memory.jsonl: items by id, tombstone targets as a set (order-free, so a
 * tombstone written before its target still forgets it), the highest id ever seen, and every
 * skipped line. Records are applied in file order.
 *
 * Built for 100k items: the parser feeds this state directly, the parsed item itself is kept, and
 * while the file is in time order (an append-only log) active() reverses instead of sorting.
 */
import { isoTime, parseInto, type EntrySink } from './parse';
import type { RawLines } from './raw-lines';
import { IdLineIndex } from './id-line-index';
import { laterStamp } from './hlc';
import { pinnedBy } from './pin-time';
import { copyReason, UidCopies, type UidRecord } from './uid-copies';
import type { MemoryItem, PinRecord, SkippedLine, Tombstone } from '../types';

const INVALID_UTF8 = 'invalid UTF-8 (kept as is)';

export class MemoryState {
  /** Items in file order. The id index is built on first lookup: loading and listing never need it. */
  private readonly itemList: MemoryItem[] = [];
  private byId: Map<number, MemoryItem> | null = null;
  /** id -> line where it was first used; items and tombstones share one id space. */
  private readonly lineOf = new IdLineIndex();
  /** The first record of each uid: a later one (a hand-copied line) gets a uid of its own. */
  readonly copies = new UidCopies();
  /** id -> last line, for the few items spread over several lines (hand edits). */
  private readonly endOf = new Map<number, number>();
  /** Tombstones in file order (the dangling ones are reported). */
  private readonly tombs: Tombstone[] = [];
  private readonly forgotten = new Set<number>();
  /** target -> the pin or unpin record with the highest id so far. */
  private readonly pins = new Map<number, PinRecord>();
  private pinRecords = 0;
  private readonly skippedLines: SkippedLine[] = [];
  private readonly rawBad: Array<string | Buffer> = [];
  /** Original bytes of items whose lines are not valid UTF-8, written back as they are by compaction. */
  private readonly rawItems = new Map<number, Buffer>();
  /** The bytes of what is being ingested, when they hold invalid UTF-8. */
  private raw: RawLines | null = null;
  private highest = 0;
  /** The highest hlc stamp of any record read (kept on rollback: the clock only needs to pass it). */
  maxHlc: string | undefined;
  private activeCache: MemoryItem[] | null = null;
  private inOrder = true;
  private lastTime = -Infinity;
  private lastId = 0;
  /** Undo steps of provisionally applied records (an unfinished last line that may still grow). */
  private undo: Array<() => void> | null = null;

  private readonly sink: EntrySink = {
    item: (read, time, line, endLine) => {
      if (!this.claim(read.id, line, endLine, read)) return;
      const item = this.ownUid(read, line, endLine, time);
      this.addItem(item, time);
      if (endLine !== undefined) this.endOf.set(item.id, endLine); // kept on rollback: the id is claimed again
      if (this.raw) this.keepRaw(item.id, line, endLine);
    },
    forget: (tomb, line, endLine) => {
      if (!this.claim(tomb.id, line, endLine, tomb)) return;
      this.addTomb(this.ownUid(tomb, line, endLine));
      if (this.raw?.invalidSpan(line, endLine ?? line)) this.skip(line, endLine, INVALID_UTF8, undefined, true);
    },
    pin: (pin, line, endLine) => {
      if (!this.claim(pin.id, line, endLine, pin)) return;
      this.addPin(this.ownUid(pin, line, endLine));
    },
    header: (maxId) => {
      if (maxId !== undefined) this.raiseHighest(maxId);
    },
    bad: (line, endLine, reason, raw, reservedId) => {
      const odd = this.raw?.invalidSpan(line, endLine ?? line);
      this.skip(line, endLine, odd && !odd.cutOnly ? `${reason}; invalid UTF-8` : reason, odd?.bytes ?? raw);
      if (reservedId !== undefined) this.raiseHighest(reservedId);
    },
  };

  /**
   * Parse and apply complete lines of the file, the first being line number `firstLine`. Returns
   * the character offset where a multi-line object still open at the end begins (those lines are
   * not applied: they belong with what comes next), or null.
   */
  ingest(text: string, firstLine: number, raw: RawLines | null = null): number | null {
    this.raw = raw;
    try {
      return parseInto(text, firstLine, true, this.sink, true);
    } finally {
      this.raw = null;
      this.activeCache = null;
    }
  }

  /** Parse and apply the file's unfinished end; rollbackProvisional() takes it back. */
  ingestProvisional(text: string, line: number, endsWithNewline: boolean, raw: RawLines | null = null): void {
    this.rollbackProvisional();
    this.undo = [];
    this.raw = raw;
    try {
      parseInto(text, line, endsWithNewline, this.sink);
    } finally {
      this.raw = null;
      this.activeCache = null;
    }
  }

  rollbackProvisional(): void {
    if (!this.undo) return;
    const steps = this.undo;
    this.undo = null;
    for (let i = steps.length - 1; i >= 0; i--) steps[i]!();
    this.activeCache = null;
  }

  /** Record that `id` is used at `line`; false (and a skipped line) when it was used before. */
  private claim(id: number, line: number, endLine: number | undefined, record: object): boolean {
    const first = this.lineOf.get(id);
    if (first !== undefined) {
      // Kept as text too, so compaction sets it aside in .rejected rather than dropping it.
      const odd = this.raw?.invalidSpan(line, endLine ?? line);
      this.skip(
        line,
        endLine,
        `duplicate id ${id} (first used on line ${first})${odd ? '; invalid UTF-8' : ''}`,
        odd?.bytes ?? JSON.stringify(record),
      );
      return false;
    }
    this.lineOf.set(id, line);
    this.undo?.push(() => this.lineOf.delete(id));
    this.raiseHighest(id);
    this.maxHlc = laterStamp(this.maxHlc, (record as { hlc?: unknown }).hlc);
    return true;
  }

  /** `r`, or `r` with a uid of its own when an earlier record has its uid (uid-copies.ts): kept, and reported. */
  private ownUid<T extends UidRecord>(r: T, line: number, endLine: number | undefined, time = NaN): T {
    const [out, first] = this.copies.adopt(r, time, (id) => this.forgotten.has(id));
    this.undo?.push(() => this.copies.dropLast(r));
    if (first !== undefined && out !== r) this.skip(line, endLine, copyReason(out, this.lineOf.get(first) ?? 0), undefined, true);
    return out;
  }

  private addItem(item: MemoryItem, time: number): void {
    const id = item.id;
    this.itemList.push(item);
    this.byId?.set(id, item);
    if (this.undo) {
      this.undo.push(() => {
        this.itemList.pop();
        this.byId?.delete(id);
      });
      this.inOrder = false; // a provisional item may be rolled back: stay simple and sort
    } else if (time < this.lastTime || (time === this.lastTime && id < this.lastId)) {
      this.inOrder = false;
    } else {
      this.lastTime = time;
      this.lastId = id;
    }
  }

  private addTomb(tomb: Tombstone): void {
    this.tombs.push(tomb);
    this.undo?.push(() => this.tombs.pop());
    const target = tomb.target;
    // A tombstone written by hand for an id not used yet must not forget the next item added.
    this.raiseHighest(target);
    if (!this.forgotten.has(target)) {
      this.forgotten.add(target);
      this.undo?.push(() => this.forgotten.delete(target));
    }
  }

  private addPin(pin: PinRecord): void {
    this.pinRecords++;
    this.undo?.push(() => this.pinRecords--);
    this.raiseHighest(pin.target);
    const before = this.pins.get(pin.target);
    if (before && before.id > pin.id) return;
    this.pins.set(pin.target, pin);
    this.undo?.push(() => (before ? this.pins.set(pin.target, before) : this.pins.delete(pin.target)));
  }

  private raiseHighest(id: number): void {
    if (id <= this.highest) return;
    const before = this.highest;
    this.highest = id;
    this.undo?.push(() => {
      this.highest = before;
    });
  }

  /** An item whose line is not valid UTF-8: used, reported, and its bytes kept for compaction. */
  private keepRaw(id: number, line: number, endLine: number | undefined): void {
    const bytes = this.raw?.invalidSpan(line, endLine ?? line)?.bytes;
    if (!bytes) return;
    this.rawItems.set(id, bytes);
    this.undo?.push(() => this.rawItems.delete(id));
    this.skip(line, endLine, INVALID_UTF8, undefined, true);
  }

  private skip(line: number, endLine: number | undefined, reason: string, raw: string | Buffer | undefined, kept = false): void {
    const s: SkippedLine = endLine !== undefined ? { line, endLine, reason } : { line, reason };
    if (kept) s.kept = true;
    this.skippedLines.push(s);
    this.undo?.push(() => this.skippedLines.pop());
    if (raw !== undefined) {
      this.rawBad.push(raw);
      this.undo?.push(() => this.rawBad.pop());
    }
  }

  /** Highest id ever used (items, tombstones, header maxId, ids visible in broken lines). */
  get maxId(): number {
    return this.highest;
  }

  get skipped(): readonly SkippedLine[] {
    return this.skippedLines;
  }

  /** Raw text of unusable lines (bytes when not valid UTF-8), kept so compaction can set them aside instead of dropping them. */
  get badLines(): ReadonlyArray<string | Buffer> {
    return this.rawBad;
  }

  /** The original bytes of an item whose line is not valid UTF-8. */
  rawItem(id: number): Buffer | undefined {
    return this.rawItems.size === 0 ? undefined : this.rawItems.get(id);
  }

  private index(): Map<number, MemoryItem> {
    if (!this.byId) this.byId = new Map(this.itemList.map((it) => [it.id, it]));
    return this.byId;
  }

  /** The id names an item (active or forgotten), not a tombstone or nothing. */
  hadItem(id: number): boolean {
    return this.index().has(id);
  }

  isActive(id: number): boolean {
    return !this.forgotten.has(id) && this.index().has(id);
  }

  get(id: number): MemoryItem | undefined {
    return this.forgotten.has(id) ? undefined : this.index().get(id);
  }

  /** Pinned: by its latest pin/unpin record, else by the item's own `pinned` field. */
  isPinned(item: MemoryItem): boolean {
    return pinnedBy(this.pins.size ? this.pins.get(item.id) : undefined, item);
  }

  /** The lines a record spans (first, last), by its id; undefined when no record has it. */
  linesOf(id: number): [number, number] | undefined {
    const first = this.lineOf.get(id);
    return first === undefined ? undefined : [first, this.endOf.get(id) ?? first];
  }

  /** Every item read, forgotten or not, in file order. */
  itemsInFileOrder(): readonly MemoryItem[] {
    return this.itemList;
  }

  /** Every tombstone, in file order. */
  forgottenTargets(): readonly Tombstone[] {
    return this.tombs;
  }

  /** Per target, the pin or unpin record that decides it. */
  pinsByTarget(): ReadonlyMap<number, PinRecord> {
    return this.pins;
  }

  /** Active items, newest first (ts descending, then id descending). */
  active(): MemoryItem[] {
    if (this.activeCache) return this.activeCache;
    const out: MemoryItem[] = [];
    const list = this.itemList;
    const forgotten = this.forgotten;
    if (this.inOrder) {
      // The file is in time order: walking it backwards is newest first.
      for (let i = list.length - 1; i >= 0; i--) if (!forgotten.has(list[i]!.id)) out.push(list[i]!);
    } else {
      for (const item of list) if (!forgotten.has(item.id)) out.push(item);
      const time = new Map(out.map((it) => [it, isoTime(it.ts)]));
      out.sort((a, b) => time.get(b)! - time.get(a)! || b.id - a.id);
    }
    this.activeCache = out;
    return out;
  }

  /** Number of item, tombstone and pin records that compaction would drop (pins are folded into items). */
  get deadRecords(): number {
    let forgottenItems = 0;
    for (const it of this.itemList) if (this.forgotten.has(it.id)) forgottenItems++;
    return forgottenItems + this.tombs.length + this.pinRecords;
  }
}
