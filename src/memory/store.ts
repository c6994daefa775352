/**
 * The memory store: memory.jsonl as a log of items and tombstones (docs/memory.md). Every write:
 * lock, re-read what others appended, next id, append whole lines on an O_APPEND descriptor opened
 * by path (editors save by rename), fdatasync, release.
 */
import { dirname } from 'node:path';
import { realDir } from '../util/paths';
import { ensurePrivateDir } from '../util/fs-safe';
import { appendRecords } from './log/append';
import { removeStaleTempFiles, writeCompacted, type CompactResult } from './log/compact';
import { FileCursor, type CursorState } from './log/file-cursor';
import { appendAtomically } from './log/rewrite';
import type { TransferItem } from './transfer';
import { ingestFile } from './log/ingest';
import { DEFAULT_LOCK_TIMING, sweepLockLeftovers, withLock, type LockGuard, type LockTiming } from './log/lock';
import { MemoryState } from './log/state';
import { keepingSyncRecords } from './sync/stage-now';
import { loadIdentity, observeStamp, uidOf } from './log/identity';
import type { MemoryItem, MemoryKind, SkippedLine } from './types';

export interface MemoryStoreOptions {
  lock?: Partial<LockTiming>;
  now?: () => Date;
  /** One-line notes for the user (a file made private, a lock taken over); also kept in `notices`. */
  notice?: (text: string) => void;
}

export type { MemorySnapshot } from './log/records';
import { pinnedSince } from './log/pin-time';
import { carriedOver, fileHeader, newItem, newPin, newTombstone, sameItemKey } from './log/records';
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
    return this.mutate((state) => {
      const item = newItem(state.maxId + 1, this.now(), kind, content, opts);
      return { records: [item], result: item };
    });
  }

  /** Like add, unless an active item in the same scope already says the same (white space and case aside). */
  async addUnique(kind: MemoryKind, content: string, opts: AddOptions = {}): Promise<{ item: MemoryItem; added: boolean }> {
    return this.mutate<{ item: MemoryItem; added: boolean }>((state) => {
      const key = sameItemKey(opts.scope, content);
      const found = state.active().find((it) => sameItemKey(it.scope, it.content) === key);
      if (found) return { records: [], result: { item: found, added: false } };
      const item = newItem(state.maxId + 1, this.now(), kind, content, opts);
      return { records: [item], result: { item, added: true } };
    });
  }

  isPinned(item: MemoryItem): boolean {
    return this.state.isPinned(item);
  }

  /** Tombstones that name no item (reported at load; they forget nothing). */
  danglingTombstones(): Array<{ line: number; id: number; target: number }> {
    return this.state.danglingTombstones();
  }

  /** Add many items in one atomic rewrite (import), fresh ids; those an active (or earlier) item already says are returned. */
  async importItems(list: readonly TransferItem[]): Promise<{ added: MemoryItem[]; duplicates: TransferItem[] }> {
    return this.mutate((state) => {
      const seen = new Set(state.active().map((it) => sameItemKey(it.scope, it.content)));
      const added: MemoryItem[] = [];
      const duplicates: TransferItem[] = [];
      let next = state.maxId + 1;
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

  /** Pin or unpin an active item: one pin record, nothing when it is already so. */
  async setPinned(id: number, on: boolean): Promise<PinResult> {
    return this.mutate<PinResult>((state) => {
      const item = state.get(id);
      if (!item) return { records: [], result: { ok: false, reason: this.whyInactive(id), id } };
      if (state.isPinned(item) === on) return { records: [], result: { ok: true, item, changed: false } };
      return { records: [newPin(state.maxId + 1, this.now(), on, id, uidOf(item))], result: { ok: true, item, changed: true } };
    });
  }

  async forget(id: number): Promise<ForgetResult> {
    return this.mutate<ForgetResult>((state) => {
      const item = state.get(id);
      if (!item) return { records: [], result: { ok: false, reason: this.whyInactive(id), id } };
      const tombstone = newTombstone(this.now(), state.maxId + 1, id, uidOf(item));
      return { records: [tombstone], result: { ok: true, tombstone, item } };
    });
  }

  /** Forget several items in one locked write; ids no longer active are skipped. Returns those forgotten. */
  async forgetMany(ids: readonly number[]): Promise<MemoryItem[]> {
    return this.mutate((state) => {
      const gone: MemoryItem[] = [];
      const records: object[] = [];
      let next = state.maxId + 1;
      for (const id of new Set(ids)) {
        const item = state.get(id);
        if (!item) continue;
        gone.push(item);
        records.push(newTombstone(this.now(), next++, id, uidOf(item)));
      }
      return { records, result: gone };
    });
  }

  /** New item plus a tombstone of the old one, in one locked write. */
  async edit(id: number, content: string, opts: AddOptions = {}): Promise<EditResult> {
    return this.mutate<EditResult>((state) => {
      const old = state.get(id);
      if (!old) return { records: [], result: { ok: false, reason: this.whyInactive(id), id } };
      const item = newItem(state.maxId + 1, this.now(), old.kind, content, { ...carriedOver(old, pinnedSince(state, old), true), ...opts });
      return { records: [item, newTombstone(this.now(), state.maxId + 2, id, uidOf(old))], result: { ok: true, item, replaced: old } };
    });
  }

  /** A new item that forgets an old one it updates, one locked write (pin and scope carry over); only the new one when the old is gone. */
  async supersede(
    oldId: number,
    kind: MemoryKind,
    content: string,
    opts: AddOptions = {},
  ): Promise<{ item: MemoryItem; replaced?: MemoryItem }> {
    return this.mutate<{ item: MemoryItem; replaced?: MemoryItem }>((state) => {
      const old = state.get(oldId);
      const item = newItem(state.maxId + 1, this.now(), kind, content, {
        ...(old && carriedOver(old, pinnedSince(state, old), false)),
        ...opts,
      });
      if (!old) return { records: [item], result: { item } };
      return { records: [item, newTombstone(this.now(), state.maxId + 2, oldId, uidOf(old))], result: { item, replaced: old } };
    });
  }

  /** One tombstone per active item, one locked write. */
  async clear(): Promise<MemoryItem[]> {
    return this.mutate((state) => {
      const active = state.active();
      let next = state.maxId + 1;
      return { records: active.map((it) => newTombstone(this.now(), next++, it.id, uidOf(it))), result: active };
    });
  }

  /** Rewrite with only active items and a header keeping the highest id ever used; atomic, under the lock. */
  async compact(): Promise<CompactResult> {
    this.assertOpen();
    ensurePrivateDir(dirname(this.path));
    // With sync set up, what it has not sent yet goes to its outbox before the rewrite drops it.
    const rewrite = (guard: LockGuard, stageForSync: () => void): CompactResult => {
      stageForSync();
      this.reset();
      this.refresh();
      removeStaleTempFiles(this.path);
      const result = writeCompacted(this.path, this.state, this.now(), guard, this.notify);
      this.reset();
      this.refresh();
      return result;
    };
    return keepingSyncRecords(this.path, (stage) => withLock(this.path, (g) => rewrite(g, stage), this.timing, this.notify));
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
  private async mutate<T>(plan: (state: MemoryState) => { records: object[]; result: T }, atomic = false): Promise<T> {
    this.assertOpen();
    ensurePrivateDir(dirname(this.path));
    await loadIdentity();
    return withLock(
      this.path,
      (guard) => {
        this.refresh();
        observeStamp(this.state.maxHlc);
        const { records, result } = plan(this.state);
        if (records.length === 0) return result;
        guard.assertHeld();
        const lines = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
        if (atomic) appendAtomically(this.path, lines, this.header(), this.notify);
        else appendRecords(this.path, lines, this.header(), this.notify);
        this.refresh();
        return result;
      },
      this.timing,
      this.notify,
    );
  }

  private header(): string {
    return fileHeader(this.now());
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
