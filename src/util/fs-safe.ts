/** File-system steps shared by everything that keeps user data: private directories, fsync, whole-line appends. */
import {
  chmodSync,
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { AishError, errnoCode } from './errors';

/** Private data lives in 0700 directories. Existing directories are left as the user set them. */
export function ensurePrivateDir(dir: string): void {
  let existed = true;
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    existed = false;
  }
  if (existed) return;
  try {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      // A recursive mkdir says ENOENT for what was refused (a read-only file system, no permission):
      // one level at a time gives the real cause, so the user is told what to fix.
      if (errnoCode(err) !== 'ENOENT') throw err;
      mkdirEachLevel(dir);
    }
  } catch (err) {
    throw cannotCreateDir(dir, err);
  }
  // mkdir's mode is masked by the umask; say exactly what we mean.
  chmodSync(dir, 0o700);
}

function mkdirEachLevel(dir: string): void {
  const missing: string[] = [];
  for (let p = dir; !anythingAt(p) && dirname(p) !== p; p = dirname(p)) missing.unshift(p);
  for (const p of missing) mkdirSync(p, { mode: 0o700 });
}

/**
 * A directory aish needs that cannot be made, in one line with what to do. `reason` (the cause in
 * words) and `code` stay for callers that say it their own way (describeFsError).
 */
function cannotCreateDir(dir: string, err: unknown): Error {
  const code = errnoCode(err);
  const reason = describeFsError(err);
  const at = err instanceof Error && 'path' in err && typeof err.path === 'string' && err.path !== dir ? ` (at ${err.path})` : '';
  const message = `cannot create ${dir}: ${reason}${at} — make it writable, or pass another data directory with --data-dir (or AISH_DATA_DIR)`;
  return Object.assign(new AishError(message), { code, reason });
}

/** Whether `path` is (or links to) a regular file; false when it cannot be read or is gone. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Open `path` only if it is a regular file, without waiting on a FIFO (O_NONBLOCK is added: an
 * open of a FIFO would otherwise block until a writer or reader comes). Anything else is closed
 * again and refused with code ENOTREG.
 */
export function openRegular(path: string, flags: number, mode?: number): number {
  const fd = openSync(path, flags | constants.O_NONBLOCK, mode);
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  if (!regular) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
  return fd;
}

/** Whether anything, a dangling link included, is at `path`; false when it cannot be looked at. */
export function anythingAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** fsync a directory so a create or rename in it survives a power cut. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the data itself was already synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Append whole lines to a descriptor opened with O_APPEND, in one write, then fdatasync. When the
 * file's last byte is not a newline (a line torn by a crash, or a hand edit saved without one), a
 * newline goes first: the new record starts on a fresh line, and the last line is never truncated,
 * because it may be a valid record. `prefixIfEmpty` is written first into an empty file (a header).
 * `sync: false` skips the fdatasync, for data a power cut may lose (prompt history).
 *
 * A failed append leaves the file as it was: on any error (a full disk, EIO, a write that stops
 * short) the file is cut back to the size it had before, synced, and the error rethrown. The caller
 * must be the only writer meanwhile (the memory store holds its lock; a session log has one
 * writer). If even that fails, the error carries `undoError` (see appendUndoFailed).
 */
export function appendWholeLines(fd: number, text: string | Uint8Array, prefixIfEmpty = '', sync = true): void {
  const size = fstatSync(fd).size;
  try {
    let lead = '';
    if (size === 0) lead = prefixIfEmpty;
    else {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = '\n';
    }
    writeAll(fd, typeof text === 'string' ? Buffer.from(lead + text, 'utf8') : Buffer.concat([Buffer.from(lead, 'utf8'), text]));
    if (sync) fdatasyncSync(fd);
  } catch (err) {
    try {
      ftruncateSync(fd, size);
      fdatasyncSync(fd);
    } catch (undoError) {
      if (err instanceof Error) Object.assign(err, { undoError });
    }
    throw err;
  }
}

/**
 * Every byte of `bytes`, at `pos` or (without one) at the file's offset: one write may take fewer
 * bytes than it is given, so a short write is never taken for a whole one. A regular file never
 * takes 0 bytes without an error; looping on it would never end, so that is an error too.
 */
export function writeAll(fd: number, bytes: Uint8Array, pos?: number): void {
  let done = 0;
  while (done < bytes.length) {
    const n = writeSync(fd, bytes, done, bytes.length - done, pos === undefined ? null : pos + done);
    if (!(n > 0)) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    done += n;
  }
}

/** The append failed and cutting the file back failed too: part of it may be left in the file. */
export function appendUndoFailed(err: unknown): boolean {
  return err instanceof Error && 'undoError' in err;
}

const ERRNO_WORDS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EFBIG: 'file too large',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};

/** "no space left on device" for ENOSPC and friends; the error's own first line otherwise. */
export function describeFsError(err: unknown): string {
  // A failed atomic write already says it in words (a short write has no errno code).
  if (err instanceof Error && 'reason' in err && typeof err.reason === 'string') return err.reason;
  const code = errnoCode(err);
  if (code && ERRNO_WORDS[code]) return ERRNO_WORDS[code];
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]!;
}

/**
 * A regular file's bytes, or (`first`, `last`) at most that many from its start or its end; opened
 * by openRegular, so a FIFO or device in its place is refused, never waited on. Throws as open and
 * read do (ENOENT when there is none).
 */
export function readRegularFile(path: string, opts: { first?: number; last?: number } = {}): Buffer {
  const fd = openRegular(path, constants.O_RDONLY);
  try {
    if (opts.first !== undefined) return readAt(fd, 0, opts.first);
    const size = fstatSync(fd).size;
    const len = Math.min(size, opts.last ?? size);
    return readAt(fd, size - len, len);
  } finally {
    closeSync(fd);
  }
}

/** Up to `len` bytes at `pos` of an open file (fewer at its end): one pread may return less. */
export function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, len));
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
