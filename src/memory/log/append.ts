/**
 * The store's one way of adding to memory.jsonl, called under the lock: whole lines on an O_APPEND
 * descriptor opened by path (editors save by rename, so a long-lived descriptor could write into a
 * deleted file), fdatasync. A failed write leaves the file byte-identical (appendWholeLines cuts it
 * back; a file this call created is removed again) and becomes one line naming the file.
 */
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readlinkSync, rmSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { AishError, errnoCode } from '../../util/errors';
import { appendUndoFailed, appendWholeLines, describeFsError, fsyncDir } from '../../util/fs-safe';

/** Append `text` (whole lines); `header` goes first into an empty file. `notice` gets one-line notes for the user. */
export function appendRecords(path: string, text: string, header: string, notice: (text: string) => void): void {
  let fd: number;
  let created: string | null;
  try {
    ({ fd, created } = openForAppend(path, 0));
  } catch (err) {
    throw new AishError(`cannot write ${path}: ${describeFsError(err)} — nothing was written`);
  }
  try {
    // The create mode is masked by the umask; a hand-made file may be readable by others.
    if (created) fchmodSync(fd, 0o600);
    else makePrivate(fd, path, fstatSync(fd).mode, notice);
    appendWholeLines(fd, text, header);
  } catch (err) {
    closeSync(fd);
    if (created !== null && !appendUndoFailed(err)) rmSync(created, { force: true });
    throw new AishError(writeFailure(path, err));
  }
  closeSync(fd);
  if (created !== null) fsyncDir(dirname(created));
}

/** Links followed before giving up, as the kernel's own limit (ELOOP). */
const MAX_LINKS = 40;

/**
 * The descriptor, and the path of the file when this call created it. A symlink is followed, also
 * when its target does not exist yet (created there, as `>>` would): O_EXCL never follows a link, so
 * "missing" then "exists" would otherwise repeat for ever on a dangling one.
 */
function openForAppend(path: string, links: number): { fd: number; created: string | null } {
  for (let tries = 0; ; tries++) {
    try {
      return { fd: openSync(path, constants.O_RDWR | constants.O_APPEND), created: null };
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
    try {
      return { fd: openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o600), created: path };
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err; // made by hand just now: open that one
    }
    const to = linkTarget(path);
    if (to !== null) {
      if (links >= MAX_LINKS) throw errnoError('ELOOP', 'too many symbolic links');
      return openForAppend(to, links + 1);
    }
    // Created and removed again by someone else between our two opens, repeatedly: not worth a spin.
    if (tries >= 100) throw errnoError('EBUSY', 'the file keeps appearing and disappearing');
  }
}

/** Where the symlink at `path` points (resolved against its directory), or null when it is not one. */
function linkTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? resolve(dirname(path), readlinkSync(path)) : null;
  } catch {
    return null;
  }
}

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function writeFailure(path: string, err: unknown): string {
  const why = describeFsError(err);
  if (!appendUndoFailed(err)) return `cannot write ${path}: ${why} — nothing was written`;
  const undo = describeFsError((err as { undoError: unknown }).undoError);
  return `cannot write ${path}: ${why} — and undoing the partial write failed too (${undo}); its last line may be torn`;
}

/** memory.jsonl made by hand (or by an editor) with group or world access: tighten it to 0600, once, and say so. */
function makePrivate(fd: number, path: string, mode: number, notice: (text: string) => void): void {
  if ((mode & 0o077) === 0) return;
  const was = (mode & 0o777).toString(8).padStart(4, '0');
  try {
    fchmodSync(fd, 0o600);
    notice(privateNotice(path, was));
  } catch (err) {
    notice(`${basename(path)} has mode ${was} (others may read it) and could not be made private: ${describeFsError(err)}`);
  }
}

export function privateNotice(path: string, was: string): string {
  return `${basename(path)} had mode ${was} (others could read it); made it private (0600)`;
}
