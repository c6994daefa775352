/**
 * Whole-file rewrites of memory.jsonl, under the store's lock: a temp file, fsynced and renamed
 * over it (util/atomic-write, which checks what reached the disk first), then the directory fsynced. A crash at any point leaves the old file
 * or the new one, never a mix. Compaction writes a new file; import writes the old bytes plus new
 * lines, so an import is all or nothing, as a large append cut short by SIGKILL would not be.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { AishError } from '../../util/errors';
import { describeFsError } from '../../util/fs-safe';
import { privateNotice } from './append';

/**
 * Replace `path` with `data` (0600). `failure` words the error, given the reason (the original is
 * untouched then, and no temp file is left). A file others could read is reported
 * once made private.
 */
export function rewriteFile(
  path: string,
  data: string | Buffer,
  failure: (reason: string) => string,
  notice: (text: string) => void,
): void {
  const mode = statSync(path, { throwIfNoEntry: false })?.mode ?? 0o600;
  try {
    writeFileAtomicSync(path, data, { mode: 0o600, fsync: true });
  } catch (err) {
    throw new AishError(failure(describeFsError(err)));
  }
  if (mode & 0o077) notice(privateNotice(path, (mode & 0o777).toString(8).padStart(4, '0')));
}

/** The file as it is plus `lines` (a missing file starts with `header`), in one rewrite. */
export function appendAtomically(path: string, lines: string, header: string, notice: (text: string) => void): void {
  let before: Buffer;
  try {
    before = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new AishError(`cannot read ${path}: ${describeFsError(err)} — nothing imported`);
    before = Buffer.from(header);
  }
  // A last line without its newline (a torn write, a hand edit) keeps its bytes and ends here.
  const sep = before.length > 0 && before[before.length - 1] !== 0x0a ? '\n' : '';
  rewriteFile(path, Buffer.concat([before, Buffer.from(sep + lines)]), (why) => `cannot write ${path}: ${why} — nothing imported`, notice);
}
