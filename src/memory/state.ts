/**
 * The in-memory view of memory.jsonl: items by id, tombstone targets as a set (order-free, so a
 * tombstone written before its target still forgets it), the highest id ever seen, and every
 * skipped line. Entries are applied in file order.
 */
import type { Entry, MemoryItem, SkippedLine } from './types';

interface Stored {
  item: MemoryItem;
  time: number;
  line: number;
}

export class MemoryState {
  private readonly items = new Map<number, Stored>();
  private readonly forgotten = new Set<number>();
  /** id -> line where it was first used (items and tombstones share one id space). */
  private readonly used = new Map<number, number>();
  private readonly skippedLines: SkippedLine[] = [];
  private readonly rawBad: string[] = [];
  private highest = 0;
  private activeCache: MemoryItem[] | null = null;

  /** Undo steps of provisionally applied entries (an unfinished last line that may still grow). */
  private undo: Array<() => void> | null = null;

  apply(entries: readonly Entry[]): void {
    for (const e of entries) this.applyOne(e);
    if (entries.length) this.activeCache = null;
  }

  /** Apply entries that rollbackProvisional() can take back. */
  applyProvisional(entries: readonly Entry[]): void {
    this.rollbackProvisional();
    this.undo = [];
    this.apply(entries);
  }

  rollbackProvisional(): void {
    if (!this.undo) return;
    const steps = this.undo;
    this.undo = null;
    for (let i = steps.length - 1; i >= 0; i--) steps[i]!();
    this.activeCache = null;
  }

  private applyOne(e: Entry): void {
    switch (e.type) {
      case 'header':
        if (e.maxId !== undefined) this.raiseHighest(e.maxId);
        return;
      case 'bad':
        this.skip(e.line, e.endLine, e.reason, e.raw);
        if (e.reservedId !== undefined) this.raiseHighest(e.reservedId);
        return;
      case 'item':
      case 'forget': {
        const id = e.type === 'item' ? e.item.id : e.tomb.id;
        const first = this.used.get(id);
        if (first !== undefined) {
          this.skip(e.line, e.endLine, `duplicate id ${id} (first used on line ${first})`, undefined);
          return;
        }
        this.used.set(id, e.line);
        this.undo?.push(() => this.used.delete(id));
        this.raiseHighest(id);
        if (e.type === 'item') {
          this.items.set(id, { item: e.item, time: e.time, line: e.line });
          this.undo?.push(() => this.items.delete(id));
        } else if (!this.forgotten.has(e.tomb.target)) {
          const target = e.tomb.target;
          this.forgotten.add(target);
          this.undo?.push(() => this.forgotten.delete(target));
        }
        return;
      }
    }
  }

  private raiseHighest(id: number): void {
    if (id <= this.highest) return;
    const before = this.highest;
    this.highest = id;
    this.undo?.push(() => {
      this.highest = before;
    });
  }

  private skip(line: number, endLine: number | undefined, reason: string, raw: string | undefined): void {
    this.skippedLines.push(endLine !== undefined ? { line, endLine, reason } : { line, reason });
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

  /** Raw text of unusable lines, kept so compaction can set them aside instead of dropping them. */
  get badLines(): readonly string[] {
    return this.rawBad;
  }

  /** The id names an item (active or forgotten), not a tombstone or nothing. */
  hadItem(id: number): boolean {
    return this.items.has(id);
  }

  isActive(id: number): boolean {
    return this.items.has(id) && !this.forgotten.has(id);
  }

  get(id: number): MemoryItem | undefined {
    return this.isActive(id) ? this.items.get(id)!.item : undefined;
  }

  /** Active items, newest first (ts descending, then id descending). */
  active(): MemoryItem[] {
    if (this.activeCache) return this.activeCache;
    const list: Stored[] = [];
    for (const [id, s] of this.items) if (!this.forgotten.has(id)) list.push(s);
    list.sort((a, b) => b.time - a.time || b.item.id - a.item.id);
    this.activeCache = list.map((s) => s.item);
    return this.activeCache;
  }

  /** Number of item and tombstone records that compaction would drop. */
  get deadRecords(): number {
    let forgottenItems = 0;
    for (const id of this.items.keys()) if (this.forgotten.has(id)) forgottenItems++;
    return forgottenItems + (this.used.size - this.items.size);
  }
}
