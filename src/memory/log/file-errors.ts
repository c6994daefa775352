/**
 * A memory file (memory.jsonl, inbox.jsonl) or its lock that cannot be used, in one line that says
 * what is wrong and what to do, instead of a raw EACCES or ENOTDIR.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { AishError, errnoCode } from '../../util/errors';
import { describeFsError } from '../../util/fs-safe';

/** ENOTDIR: name the part of the path that is a file, not a directory (`--data-dir /etc/passwd`). */
function notADirectory(path: string): string {
  for (let d = dirname(path); d !== dirname(d); d = dirname(d)) {
    try {
      const st = lstatSync(d);
      if (!st.isDirectory() && !st.isSymbolicLink())
        return `${d} is a file, not a directory: pass a directory with --data-dir (or AISH_DATA_DIR), or point memory.path at a file`;
    } catch {
      // missing parts are not the cause of ENOTDIR; go on up
    }
  }
  return 'a part of the path is not a directory: fix it, or point memory.path at a file';
}

/** Reading `path` failed with `err`. */
export function cannotRead(path: string, err: unknown): AishError {
  if (err instanceof AishError) return err;
  const code = errnoCode(err);
  const fix =
    code === 'EACCES' || code === 'EPERM'
      ? `make it yours and readable: chmod 600 ${path}`
      : code === 'ENOTDIR'
        ? notADirectory(path)
        : code === 'ELOOP'
          ? `a symbolic link in the path goes in a circle: fix it, or point memory.path at a file`
          : 'check the file and the disk';
  return new AishError(`cannot read ${path}: ${describeFsError(err)} — ${fix}`);
}

/** Taking the lock directory `lockDir` failed with `err`: a file or symlink in its place, or a directory aish may not write in. */
export function cannotLock(lockDir: string, err: unknown): Error {
  if (err instanceof AishError) return err;
  const st = lstatSync(lockDir, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    let to = '';
    try {
      to = ` to ${readlinkSync(lockDir)}`;
    } catch {
      // unreadable link: named without its target
    }
    return new AishError(`${lockDir} is a symbolic link${to}, not aish's lock directory — remove it (rm ${lockDir}) if no aish is running`);
  }
  if (st && !st.isDirectory()) return new AishError(`${lockDir} is a file, not aish's lock directory — remove it if no aish is running`);
  const code = errnoCode(err);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new AishError(`cannot lock ${lockDir}: ${describeFsError(err)} — ${dirname(lockDir)} must be a directory you can write in`);
  // ENOENT stays as it is: the lock's caller retries on it (a racing takeover).
  if (code && code !== 'ENOENT') return new AishError(`cannot lock ${lockDir}: ${describeFsError(err)} — nothing was written`);
  return err instanceof Error ? err : new Error(String(err));
}
