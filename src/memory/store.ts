/**
 * The memory store: memory.jsonl as a log of items and tombstones (docs/memory.md), read into a
 * state and changed by verbs. Every write is the log's one write (log/write.ts): lock, re-read what
 * others appended, next id, append whole lines fsynced, release. It knows nothing of sync: a
 * compaction is handed the hook that keeps sync's unsent records (memory/ops.ts).
 */
import { realDir } from '../util/paths';
import { compactLog, type CompactResult, type RewriteHook } from './log/compact';
import { FileCursor, type CursorState } from './log/file-cursor';
import type { TransferItem } from './porting/transfer';
import { ingestFile } from './log/ingest';
import { DEFAULT_LOCK_TIMING, sweepLockLeftovers, type LockTiming } from './log/lock';
import { MemoryState } from './log/state';
import { uidOf } from './log/identity';
import { danglingTombstones } from './log/dangling';
import { writeRecords, type Planned } from './log/write';
import type { MemoryItem, MemoryKind, SkippedLine } from './types';

export interface MemoryStoreOptions {
  lock?: Partial<LockTiming>;
  now?: () => Date;
  /** One-line notes for the user (a file made private, a lock taken over); also kept in `notices`. */
  notice?: (text: string) => void;
}

export type { MemorySnapshot } from './log/records';
import { pinnedSince } from './log/pin-time';
import { carriedOver, newItem, newPin, newTombstone, sameItemKey } from './log/records';
import type { AddOptions, EditResult, ForgetResult, MemorySnapshot, PinResult } from './log/records';

export class MemoryStore {
  private state = new MemoryState();
  private readonly cursor = new FileCursor();
  private closed = false;
  private readonly timing: LockTiming;
  private readonly now: () => Date;
  /** Every notice given so far, oldest first. */
  readonly notices: string[] = [];
  private readonly noticeFn: ((text: string) => void) | undefined;

  private constructor(
    readonly path: string,
    opts: MemoryStoreOptions,
  ) {
    this.timing = { ...DEFAULT_LOCK_TIMING, ...opts.lock };
    this.now = opts.now ?? (() => new Date());
    this.noticeFn = opts.notice;
  }

  /** Open (scan) the store. A missing file is an empty store; nothing is created until a write. */
  static open(path: string, opts: MemoryStoreOptions = {}): MemoryStore {
    // Symlinks in the directory resolved, so every process locks the same `<file>.lock`.
    const store = new MemoryStore(realDir(path), opts);
    sweepLockLeftovers(store.path);
    store.refresh();
    return store;
  }

  /** Active items, newest first. */
  items(): MemoryItem[] {
    return this.state.active();
  }

  get skipped(): readonly SkippedLine[] {
    return this.state.skipped;
  }

  get maxId(): number {
    return this.state.maxId;
  }

  get(id: number): MemoryItem | undefined {
    return this.state.get(id);
  }

  /** The whole lines read so far (an unfinished last line taken back) and the cursor after them: what the index is built from. */
  committed(): { state: MemoryState; cursor: CursorState } {
    this.state.rollbackProvisional();
    return { state: this.state, cursor: this.cursor.save() };
  }

  snapshot(): MemorySnapshot {
    return { items: this.items(), skipped: [...this.skipped], maxId: this.maxId };
  }

  /** Pick up changes made by others (appends, hand edits, compaction) without a write. */
  reload(full = false): MemorySnapshot {
    if (full) this.reset();
    this.refresh();
    return this.snapshot();
  }

  async add(kind: MemoryKind, content: string, opts: AddOptions = {}): Promise<MemoryItem> {
    return this.mutate((_state, next) => {
      const item = newItem(next, this.now(), kind, content, opts);
      return { records: [item], result: item };
    });
  }

  /**
   * Like add, unless an active item in the same scope already says the same (white space and case
   * aside); with `uid`, also unless the store has or had an item with it (an undo's restored item).
   */
  async addUnique(kind: MemoryKind, content: string, opts: AddOptions = {}, uid?: string): Promise<{ item: MemoryItem; added: boolean }> {
    return this.mutate<{ item: MemoryItem; added: boolean }>((state, next) => {
      const key = sameItemKey(opts.scope, content);
      const found =
        (uid !== undefined && state.itemsInFileOrder().find((it) => uidOf(it) === uid)) ||
        state.active().find((it) => sameItemKey(it.scope, it.content) === key);
      if (found) return { records: [], result: { item: found, added: false } };
      const item = { ...newItem(next, this.now(), kind, content, opts), ...(uid !== undefined && { uid }) };
      return { records: [item], result: { item, added: true } };
    });
  }

  isPinned(item: MemoryItem): boolean {
    return this.state.isPinned(item);
  }

  /** Tombstones that name no item (reported at load; they forget nothing). */
  danglingTombstones(): Array<{ line: number; id: number; target: number }> {
    return danglingTombstones(this.state);
  }

  /** Add many items in one atomic rewrite (import), fresh ids; those an active (or earlier) item already says are returned. */
  async importItems(list: readonly TransferItem[]): Promise<{ added: MemoryItem[]; duplicates: TransferItem[] }> {
    return this.mutate((state, first) => {
      const seen = new Set(state.active().map((it) => sameItemKey(it.scope, it.content)));
      const added: MemoryItem[] = [];
      const duplicates: TransferItem[] = [];
      let next = first;
      for (const t of list) {
        if (seen.has(sameItemKey(t.scope, t.content))) duplicates.push(t);
        else {
          seen.add(sameItemKey(t.scope, t.content));
          added.push({ ...newItem(next++, this.now(), t.kind, t.content, t), ...(t.ts && { ts: t.ts }) });
        }
      }
      return { records: added, result: { added, duplicates } };
    }, true);
  }

  /** Pin or unpin an active item: one pin record, nothing when it is already so. `uidFor`: an undo's record uid (records.ts). */
  async setPinned(id: number, on: boolean, uidFor?: (hlc: string) => string): Promise<PinResult> {
    return this.mutate<PinResult>((state, next) => {
      const item = state.get(id);
      if (!item) return { records: [], result: { ok: false, reason: this.whyInactive(id), id } };
      if (state.isPinned(item) === on) return { records: [], result: { ok: true, item, changed: false } };
      return { records: [newPin(next, this.now(), on, id, uidOf(item), uidFor)], result: { ok: true, item, changed: true } };
    });
  }

  async forget(id: number): Promise<ForgetResult> {
    return this.mutate<ForgetResult>((state, next) => {
      const item = state.get(id);
      if (!item) return { records: [], result: { ok: false, reason: this.whyInactive(id), id } };
      const tombstone = newTombstone(this.now(), next, id, uidOf(item));
      return { records: [tombstone], result: { ok: true, tombstone, item } };
    });
  }

  /** Forget several items in one locked write (inactive ids skipped); returns them. `uidFor`: each forget's uid (an undo's). */
  async forgetMany(ids: readonly number[], uidFor?: (item: MemoryItem) => string): Promise<MemoryItem[]> {
    return this.mutate((state, first) => {
      const gone: MemoryItem[] = [];
      const records: object[] = [];
      let next = first;
      for (const id of new Set(ids)) {
        const item = state.get(id);
        if (!item) continue;
        gone.push(item);
        const t = newTombstone(this.now(), next++, id, uidOf(item));
        records.push(uidFor ? { ...t, uid: uidFor(item) } : t);
      }
      return { records, result: gone };
    });
  }

  /** New item plus a tombstone of the old one, in one locked write. */
  async edit(id: number, content: string, opts: AddOptions = {}): Promise<EditResult> {
    return this.mutate<EditResult>((state, next) => {
      const old = state.get(id);
      if (!old) return { records: [], result: { ok: false, reason: this.whyInactive(id), id } };
      const item = newItem(next, this.now(), old.kind, content, { ...carriedOver(old, pinnedSince(state, old), content), ...opts });
      return { records: [item, newTombstone(this.now(), next + 1, id, uidOf(old))], result: { ok: true, item, replaced: old } };
    });
  }

  /** A new item that forgets an old one it updates, one locked write (pin and scope carry over); only the new one when the old is gone. */
  async supersede(
    oldId: number,
    kind: MemoryKind,
    content: string,
    opts: AddOptions = {},
  ): Promise<{ item: MemoryItem; replaced?: MemoryItem }> {
    return this.mutate<{ item: MemoryItem; replaced?: MemoryItem }>((state, next) => {
      const old = state.get(oldId);
      const item = newItem(next, this.now(), kind, content, {
        ...(old && carriedOver(old, pinnedSince(state, old), false)),
        ...opts,
      });
      if (!old) return { records: [item], result: { item } };
      return { records: [item, newTombstone(this.now(), next + 1, oldId, uidOf(old))], result: { item, replaced: old } };
    });
  }

  /** One tombstone per active item, one locked write. */
  async clear(): Promise<MemoryItem[]> {
    return this.mutate((state, first) => {
      const active = state.active();
      let next = first;
      return { records: active.map((it) => newTombstone(this.now(), next++, it.id, uidOf(it))), result: active };
    });
  }

  /**
   * Rewrite with only active items and a header keeping the highest id ever used; atomic, under the
   * lock. `beforeRewrite` wraps the rewrite for whoever must see the records it drops first: with
   * sync set up, sync's keepingSyncRecords (memory/ops.ts passes it), so what sync has not sent yet
   * goes to its outbox.
   */
  async compact(beforeRewrite?: RewriteHook): Promise<CompactResult> {
    this.assertOpen();
    const reread = (): MemoryState => {
      this.reset();
      this.refresh();
      return this.state;
    };
    const written = (): void => {
      this.reset();
      this.refresh();
    };
    return compactLog(this.path, reread, {
      lock: this.timing,
      notice: this.notify,
      now: this.now,
      written,
      ...(beforeRewrite && { beforeRewrite }),
    });
  }

  close(): void {
    this.closed = true;
  }

  // ---- internals ----

  private assertOpen(): void {
    if (this.closed) throw new Error('memory store is closed');
  }

  private whyInactive(id: number): 'unknown' | 'already-forgotten' {
    return this.state.hadItem(id) ? 'already-forgotten' : 'unknown';
  }

  /** `atomic`: one rewrite (temp file + rename) instead of an append, so a crash keeps all or none. */
  private async mutate<T>(plan: (state: MemoryState, next: number) => Planned<T>, atomic = false): Promise<T> {
    this.assertOpen();
    const catchUp = () => {
      this.refresh();
      return { maxId: this.state.maxId, maxHlc: this.state.maxHlc };
    };
    const written = () => this.refresh();
    return writeRecords(this.path, catchUp, (next) => plan(this.state, next), {
      lock: this.timing,
      notice: this.notify,
      now: this.now,
      atomic,
      written,
    });
  }

  private readonly notify = (text: string): void => {
    this.notices.push(text);
    this.noticeFn?.(text);
  };

  private reset(): void {
    this.state = new MemoryState();
    this.cursor.reset();
  }

  /** Bring the state up to date with the file: read only what was appended, rescan if rewritten. */
  private refresh(): void {
    this.state.rollbackProvisional();
    const r = ingestFile(this.state, this.cursor, this.path);
    if (r === 'missing') {
      if (this.cursor.seenFile) this.reset(); // deleted by hand: it is empty now
    } else if (r === 'rewritten') {
      this.reset();
      this.refresh();
    }
  }
}

/** A one-off read: active items newest first, skipped lines, highest id. */
export function loadMemory(path: string): MemorySnapshot {
  return MemoryStore.open(path).snapshot();
}
