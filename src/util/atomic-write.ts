/**
 * Replace a file whole, checking what reached the disk before anything is replaced: a temp file
 * beside it (O_EXCL, the mode), a write loop that honours the count each write returns, fsync, the
 * size on disk compared with what was meant, rename, fsync of the directory. On any failure the
 * temp file is removed and the original is left byte-identical.
 *
 * Why not write-file-atomic: it makes one write call and ignores the count it returns, so a disk
 * that fills part-way through gives a short write taken for a whole one, then renamed over the
 * original (test/util/atomic-write.test.ts shows it).
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCode } from './errors';
import { describeFsError, fsyncDir, writeAll } from './fs-safe';
import { isAlive } from './process';

/** A failed replace, in one line naming the file; `reason` is the cause in words, `code` its errno code if any. */
class AtomicWriteError extends Error {
  readonly code: string | undefined;

  constructor(
    readonly path: string,
    readonly reason: string,
    code: string | undefined,
  ) {
    super(`cannot write ${path}: ${reason} — nothing was changed`);
    this.name = 'AtomicWriteError';
    this.code = code;
  }
}

let counter = 0;

/** `<file>.<pid>.<n>.tmp`, beside the file so the rename stays on one filesystem. */
export function tempName(target: string): string {
  return `${target}.${process.pid}.${++counter}.tmp`;
}

/**
 * Remove the temp files beside `file` of processes that are gone (a crash during a write), and
 * only those: another aish may be writing its own right now. `<file>.tmp-<pid>` is the name an
 * earlier aish gave the index's and the vectors' temp files.
 */
export function sweepDeadTemps(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dir)) {
    const m = name.startsWith(prefix) ? /^(?:tmp-(\d+)|(\d+)\.\d+\.tmp)$/.exec(name.slice(prefix.length)) : null;
    const pid = m ? Number(m[1] ?? m[2]) : NaN;
    if (Number.isSafeInteger(pid) && pid !== process.pid && !isAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

/** Whether `name` (a directory entry) is a temp file of this writer, or of write-file-atomic (`<file>.<number>`), for `file`. */
export function isTempFileOf(file: string, name: string): boolean {
  const base = basename(file);
  if (!name.startsWith(base + '.')) return false;
  return /^(\d{1,10}|\d+\.\d+\.tmp)$/.test(name.slice(base.length + 1));
}

/** A symlink is followed, as editors do: the file it points to is replaced, the link stays. */
function resolveTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function shortWrite(meant: number, got: number): Error {
  return Object.assign(new Error(`only ${got} of ${meant} bytes reached the disk`), { code: 'ESHORT' });
}

/**
 * The replacement keeps the owner of the file it replaces: root running aish on a user's data
 * directory (`sudo aish memory compact`) must not leave the user a memory.jsonl they cannot read.
 * Only root can give a file away; anyone else writing someone else's file gets it as before.
 */
function keepOwner(fd: number, st: Stats | undefined): void {
  if (!st || (st.uid === process.geteuid?.() && st.gid === process.getegid?.())) return;
  try {
    fchownSync(fd, st.uid, st.gid);
  } catch (err) {
    if (errnoCode(err) !== 'EPERM') throw err;
  }
}

/**
 * Replace `path` with `data`, mode `mode` (not masked by the umask). `fsync: false` skips the
 * syncs (for data that may be lost in a power cut, never for the user's records). Throws
 * AtomicWriteError; the file at `path` is then as it was.
 */
export function writeFileAtomicSync(path: string, data: string | Buffer, opts: { mode: number; fsync?: boolean }): void {
  const target = resolveTarget(path);
  // A device, FIFO or directory is never replaced by a file (`export /dev/null` as root would).
  const st = statSync(target, { throwIfNoEntry: false });
  if (st && !st.isFile()) throw new AtomicWriteError(path, st.isDirectory() ? 'it is a directory' : 'it is not a regular file', undefined);
  replace(target, path, [typeof data === 'string' ? Buffer.from(data, 'utf8') : data], opts, st);
}

/**
 * Replace the file named `path` itself with `chunks` written one after the other, as
 * writeFileAtomicSync does but for a file aish derives and can build again (the memory index, the
 * vectors): a link or a FIFO in its place is replaced, not followed or refused.
 */
export function replaceFileSync(path: string, chunks: readonly Uint8Array[], opts: { mode: number; fsync?: boolean }): void {
  replace(path, path, chunks, opts, lstatSync(path, { throwIfNoEntry: false }));
}

/** `st`: the file being replaced, whose owner the replacement keeps. */
function replace(
  target: string,
  shownPath: string,
  chunks: readonly Uint8Array[],
  opts: { mode: number; fsync?: boolean },
  st: Stats | undefined,
): void {
  const sync = opts.fsync !== false;
  const temp = tempName(target);
  let fd: number | undefined;
  let created = false;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, opts.mode);
    created = true;
    fchmodSync(fd, opts.mode);
    keepOwner(fd, st);
    let meant = 0;
    for (const chunk of chunks) {
      writeAll(fd, chunk);
      meant += chunk.length;
    }
    if (sync) fsyncSync(fd);
    const size = fstatSync(fd).size;
    if (size !== meant) throw shortWrite(meant, size);
    const closing = fd;
    fd = undefined;
    closeSync(closing); // NFS reports a failed write-back here
    renameSync(temp, target);
    created = false;
  } catch (err) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // the write already failed; that error is the one to report
      }
    }
    if (created) rmSync(temp, { force: true });
    throw new AtomicWriteError(shownPath, describeFsError(err), errnoCode(err));
  }
  if (sync) fsyncDir(dirname(target));
}
