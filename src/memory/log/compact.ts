/**
 * `:memory compact` / `aish memory compact`: rewrite memory.jsonl with only the active items and a
 * header that keeps the highest id ever used, so ids are never reused. Atomic (temp file, fsync,
 * rename, fsync of the directory) and done under memory.jsonl's lock. Unreadable lines are moved to
 * `<file>.rejected`, never dropped.
 */
import { closeSync, constants, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isTempFileOf } from '../../util/atomic-write';
import { AishError, errnoCode } from '../../util/errors';
import { appendWholeLines, describeFsError, ensurePrivateDir, openRegular } from '../../util/fs-safe';
import { DEFAULT_LOCK_TIMING, withLock, type LockGuard, type LockTiming } from './lock';
import { isoTime } from './parse';
import { ownPinTime, pinTime } from './pin-time';
import { rewriteFile } from './rewrite';
import type { MemoryState } from './state';
import { MEMORY_FORMAT } from '../types';

export interface CompactResult {
  kept: number;
  removed: number;
  /** Unreadable lines moved to `<file>.rejected` rather than lost. */
  rejected: number;
  rejectedPath?: string;
  maxId: number;
}

/**
 * Wraps a rewrite that drops records, for whoever must see them first (sync's outbox): it may take
 * its own locks around `rewrite`, and hands it a `prepare` that runs first under memory.jsonl's lock.
 */
export type RewriteHook = <T>(file: string, rewrite: (prepare: () => void) => Promise<T>) => Promise<T>;

export interface CompactOptions {
  lock?: Partial<LockTiming>;
  notice: (text: string) => void;
  now: () => Date;
  beforeRewrite?: RewriteHook;
  /** Called under the lock once the new file is in place (the store reads it back). */
  written?: () => void;
}

/**
 * The whole compaction, under memory.jsonl's lock (and whatever `beforeRewrite` takes around it):
 * `reread` reads the file afresh, then the compacted file replaces it.
 */
export function compactLog(file: string, reread: () => MemoryState, o: CompactOptions): Promise<CompactResult> {
  ensurePrivateDir(dirname(file));
  const hook: RewriteHook = o.beforeRewrite ?? ((_file, rewrite) => rewrite(() => {}));
  const rewrite = (guard: LockGuard, prepare: () => void): CompactResult => {
    prepare();
    const state = reread();
    removeStaleTempFiles(file);
    const result = writeCompacted(file, state, o.now(), guard, o.notice);
    o.written?.();
    return result;
  };
  return hook(file, (prepare) => withLock(file, (g) => rewrite(g, prepare), { ...DEFAULT_LOCK_TIMING, ...o.lock }, o.notice));
}

/** Write the compacted file from a state freshly read under the lock. */
function writeCompacted(path: string, state: MemoryState, now: Date, guard: LockGuard, notice: (text: string) => void): CompactResult {
  // Pin records are folded into the items they name: `pinned: true` on the item (and the record's
  // time as `pinned_at`, so the most recently pinned still come first), or no field.
  const pins = state.pinsByTarget();
  const active = [...state.active()]
    .sort((a, b) => a.id - b.id)
    .map((it) => {
      const pinned = state.isPinned(it);
      const at = pinned ? pinTime(pins, it) : 0;
      if (pinned === (it.pinned === true) && (!pinned || at === ownPinTime(it))) return it;
      const { pinned: _drop, pinned_at: _at, ...rest } = it;
      return pinned ? { ...rest, pinned: true, ...(at !== isoTime(it.ts) && { pinned_at: new Date(at).toISOString() }) } : rest;
    });
  const removed = state.deadRecords;
  const bad = state.badLines;
  const maxId = state.maxId;
  guard.assertHeld();
  let rejectedPath: string | undefined;
  if (bad.length) {
    rejectedPath = `${path}.rejected`;
    const note = `// ${bad.length} unreadable line(s) set aside by compaction at ${now.toISOString()}`;
    setAside(rejectedPath, joinLines([note, ...bad]));
  }
  const header = { meta: { format: MEMORY_FORMAT, version: 1, maxId, compactedAt: now.toISOString() } };
  // Items whose lines are not valid UTF-8 are written back byte for byte, never with U+FFFD (a pin
  // record for one is then lost rather than its text).
  const text = active.some((r) => state.rawItem(r.id))
    ? joinLines([JSON.stringify(header), ...active.map((r) => state.rawItem(r.id) ?? JSON.stringify(r))])
    : [header, ...active].map((r) => JSON.stringify(r)).join('\n') + '\n';
  rewriteFile(path, text, (why) => `cannot compact ${path}: ${why} — the file is unchanged`, notice);
  return { kept: active.length, removed, rejected: bad.length, maxId, ...(rejectedPath && { rejectedPath }) };
}

/** Lines, text or bytes, each followed by a newline, as one buffer. */
function joinLines(lines: ReadonlyArray<string | Buffer>): Buffer {
  const nl = Buffer.from('\n');
  const parts: Buffer[] = [];
  for (const l of lines) parts.push(typeof l === 'string' ? Buffer.from(l, 'utf8') : l, nl);
  return Buffer.concat(parts);
}

/** Append to `<file>.rejected`; a failed write leaves it as it was. */
function setAside(rejectedPath: string, data: Buffer): void {
  let fd: number | undefined;
  try {
    // A regular file only: a FIFO in its place would take the lines and block the write for ever.
    fd = openRegular(rejectedPath, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
    appendWholeLines(fd, data);
  } catch (err) {
    if (errnoCode(err) === 'ENOTREG')
      throw new AishError(`${rejectedPath} is not a regular file — move it away (aish makes a new one); nothing was compacted`);
    throw new AishError(`cannot write ${rejectedPath}: ${describeFsError(err)} — nothing was compacted`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Rewrites' temp files left by a process killed mid-rewrite. Only a lock holder writes them, and
 * the caller holds the lock: any found are stale.
 */
function removeStaleTempFiles(path: string): void {
  const dir = dirname(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (isTempFileOf(path, n)) rmSync(join(dir, n), { force: true });
}
