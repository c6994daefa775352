/**
 * Per-write lock on memory.jsonl: proper-lockfile's `<file>.lock` directory, taken for
 * each write and released right after, so several aish processes share one data dir. The wait is
 * bounded by time (our own retry loop: proper-lockfile's retries count attempts, not milliseconds).
 *
 * Dead-owner takeover. proper-lockfile knows staleness only by mtime (10 s), so a writer killed by
 * SIGKILL inside its ~1 ms critical section would block every other aish for 10 s. The lock
 * directory therefore carries an `owner` file (pid, host, start time; lock-owner.ts), and it
 * appears and disappears atomically: it is built under a temporary name and renamed into place, and
 * released by renaming it away before deleting it. A waiter on the same host that finds the owner's
 * pid gone takes the lock over itself (takeOverDeadLock). A lock whose owner is alive is never
 * removed while fresh; once stale, it is kept only when its record proves the live pid is the
 * process that took it (same start time) — a pid reused, or a record with no start time, proves
 * nothing — and another host's lock is taken over with a warning (no way to ask that host; a live
 * owner there would have kept it fresh). proper-lockfile creates and
 * removes locks through the `fs` we hand it.
 */
import fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AishError, errnoCode } from '../../util/errors';
import { isAlive } from '../../util/process';
import { cannotLock } from './file-errors';
import { HOST, ownerMayBeAlive, readOwner, writeOwner, type Owner } from './lock-owner';

export interface LockTiming {
  /** Give up after this long: "held by another aish process". */
  waitMs: number;
  /** A lock whose mtime is older than this is taken over (its holder crashed). Minimum 2000. */
  staleMs: number;
}

export const DEFAULT_LOCK_TIMING: LockTiming = { waitMs: 5000, staleMs: 10000 };

/** `AISH_LOCK_WAIT_MS` and `AISH_LOCK_STALE_MS` (tests and debugging); defaults otherwise. */
export function lockTimingFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<LockTiming> {
  const t: Partial<LockTiming> = {};
  const wait = Number(env.AISH_LOCK_WAIT_MS);
  const stale = Number(env.AISH_LOCK_STALE_MS);
  if (env.AISH_LOCK_WAIT_MS && Number.isFinite(wait) && wait >= 0) t.waitMs = wait;
  if (env.AISH_LOCK_STALE_MS && Number.isFinite(stale) && stale >= 2000) t.staleMs = stale;
  return t;
}

export class LockBusyError extends AishError {
  constructor(file: string) {
    super(`${basename(file)} held by another aish process; nothing written — try again in a moment`);
    this.name = 'LockBusyError';
  }
}

export class LockLostError extends AishError {
  constructor(file: string) {
    super(`lost the lock on ${basename(file)} (another process took it over); nothing written — try again`);
    this.name = 'LockLostError';
  }
}

export interface LockGuard {
  /** Throws LockLostError if the lock was compromised since it was taken. Call right before writing. */
  assertHeld(): void;
}

const LEFTOVER_RE = /\.lock\.(\d+)\.[0-9a-z]+\.(tmp|gone)$/;

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function scratchName(lockDir: string, kind: 'tmp' | 'gone'): string {
  return `${lockDir}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.${kind}`;
}

/** Lock directories this process holds right now (a lock with our pid but not in here is an orphan). */
const heldByUs = new Set<string>();

function removeTree(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

function createLockDir(lockDir: string): void {
  const tmp = scratchName(lockDir, 'tmp');
  try {
    fs.mkdirSync(tmp, { mode: 0o700 });
  } catch (err) {
    throw cannotLock(lockDir, err);
  }
  try {
    writeOwner(tmp);
    fs.renameSync(tmp, lockDir); // atomic; fails when a (non-empty) lock is there
  } catch (err) {
    removeTree(tmp);
    const code = errnoCode(err);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw errno('EEXIST', `lock exists: ${lockDir}`);
    throw cannotLock(lockDir, err);
  }
}

/** What a takeover of a stale lock took from whom (for the warning about another host), by lock directory. */
interface Takeover {
  owner: Owner;
  ageMs: number;
}
const takenOver = new Map<string, Takeover>();

/**
 * proper-lockfile's rmdir: our own release, or the takeover of a lock whose mtime is stale. Renamed
 * away first (atomic: the lock is released or taken here), then judged by what was moved — another
 * waiter may have replaced the stale lock by a fresh one in between — and put back if its owner
 * may be alive.
 */
function removeLockDir(lockDir: string, staleMs: number): void {
  const before = fs.statSync(lockDir, { throwIfNoEntry: false });
  const gone = scratchName(lockDir, 'gone');
  fs.renameSync(lockDir, gone);
  const owner = readOwner(gone);
  const ours = owner !== undefined && owner.pid === process.pid && owner.host === HOST;
  if (owner && !ours) {
    const moved = fs.statSync(gone, { throwIfNoEntry: false });
    const stale = before !== undefined && moved?.ino === before.ino && before.mtimeMs < Date.now() - staleMs;
    if (ownerMayBeAlive(owner, stale, heldByUs.has(lockDir))) {
      // Stale by mtime but its holder lives (stopped, or its clock stalled): never take a live lock.
      try {
        fs.renameSync(gone, lockDir);
      } catch {
        removeTree(gone);
      }
      throw errno('ELOCKED', `lock held by live process ${owner.pid}`);
    }
    if (owner.host !== HOST) takenOver.set(lockDir, { owner, ageMs: before ? Date.now() - before.mtimeMs : staleMs });
  }
  removeTree(gone);
}

const callbackify =
  (fn: (p: string) => void) =>
  (p: string, cb: (err: NodeJS.ErrnoException | null) => void): void => {
    try {
      fn(p);
    } catch (err) {
      process.nextTick(cb, err);
      return;
    }
    process.nextTick(cb, null);
  };

/**
 * The `fs` proper-lockfile creates and removes locks through. One object per stale period, kept:
 * proper-lockfile caches the probed mtime precision on it (a new object would cost a probe per lock).
 */
function makeLockFs(staleMs: number) {
  const remove = (p: string) => removeLockDir(p, staleMs);
  return { ...fs, mkdir: callbackify(createLockDir), rmdir: callbackify(remove), rmdirSync: remove };
}
const lockFsByStale = new Map<number, ReturnType<typeof makeLockFs>>();
function lockFs(staleMs: number): ReturnType<typeof makeLockFs> {
  let f = lockFsByStale.get(staleMs);
  if (!f) lockFsByStale.set(staleMs, (f = makeLockFs(staleMs)));
  return f;
}

/**
 * Take over a lock whose owner is a dead process on this host: rename it away (atomic), check that
 * what we moved is still the dead owner's — another waiter may have taken it over and locked again
 * in between — and delete it; if it is someone else's live lock, put it back. True: try again now.
 */
function takeOverDeadLock(lockDir: string): boolean {
  const owner = readOwner(lockDir);
  if (!owner || ownerMayBeAlive(owner, false, heldByUs.has(lockDir))) return false;
  const gone = scratchName(lockDir, 'gone');
  try {
    fs.renameSync(lockDir, gone);
  } catch {
    return true; // already gone: try to lock
  }
  const moved = readOwner(gone);
  if (moved && (moved.pid !== owner.pid || moved.host !== owner.host)) {
    try {
      fs.renameSync(gone, lockDir);
    } catch {
      removeTree(gone);
    }
    return false;
  }
  removeTree(gone);
  return true;
}

/** Remove scratch directories left by processes killed mid-acquire or mid-release. */
export function sweepLockLeftovers(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.lock.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = LEFTOVER_RE.exec(name);
    if (m && !isAlive(Number(m[1]))) removeTree(join(dir, name));
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `notice` gets a one-line warning when a lock held by another host is taken over. */
export async function withLock<T>(
  file: string,
  fn: (guard: LockGuard) => Promise<T> | T,
  timing: LockTiming = DEFAULT_LOCK_TIMING,
  notice: (text: string) => void = () => {},
): Promise<T> {
  const staleMs = Math.max(2000, timing.staleMs);
  const lockDir = `${file}.lock`;
  let compromised: Error | null = null;
  const deadline = Date.now() + timing.waitMs;
  let delay = 2;
  let release: (() => Promise<void>) | undefined;
  const fsForLock = lockFs(staleMs);
  takenOver.delete(lockDir);
  // Loaded with the first write, not at start-up (it brings graceful-fs, which patches fs as it loads).
  const { default: lockfile } = await import('proper-lockfile');

  for (;;) {
    try {
      release = await lockfile.lock(file, {
        realpath: false, // the file may not exist yet; callers pass a canonical path
        fs: fsForLock,
        stale: staleMs,
        update: Math.floor(staleMs / 2),
        retries: 0,
        // proper-lockfile's default throws from a timer and kills the process. Remember it instead.
        onCompromised: (err) => {
          compromised = err;
        },
      });
      break;
    } catch (err) {
      const code = errnoCode(err);
      // ENOENT: our new lock vanished while proper-lockfile was probing it (a racing takeover):
      // nothing is held, so simply try again.
      if (code !== 'ELOCKED' && code !== 'ENOENT') throw err;
      if (code === 'ELOCKED' && takeOverDeadLock(lockDir)) continue;
      if (Date.now() >= deadline) throw new LockBusyError(file);
      await sleep(Math.min(delay * (0.5 + Math.random()), Math.max(1, deadline - Date.now())));
      delay = Math.min(delay * 1.5, 50);
    }
  }

  heldByUs.add(lockDir);
  const took = takenOver.get(lockDir);
  takenOver.delete(lockDir);
  if (took) {
    const { pid, host } = took.owner;
    notice(`took over ${basename(lockDir)} from aish pid ${pid} on host ${host} (not refreshed for ${Math.round(took.ageMs / 1000)} s)`);
  }
  const guard: LockGuard = {
    assertHeld() {
      if (compromised) throw new LockLostError(file);
    },
  };
  try {
    return await fn(guard);
  } finally {
    try {
      await release();
    } catch {
      // Released already or compromised: the lock is not ours any more, nothing to undo.
    }
    heldByUs.delete(lockDir);
  }
}
