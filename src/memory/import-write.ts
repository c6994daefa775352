/**
 * The one write of `aish memory import`: the file as it is plus the new lines, written to a temp
 * file, fsynced and renamed over it (write-file-atomic), under the store's lock. A crash at any
 * point leaves the file as it was or with every imported item — never some of them, as a large
 * append cut short by SIGKILL could.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { AishError } from '../util/errors';
import { describeFsError, fsyncDir } from '../util/fs-safe';
import { privateNotice } from './append';
import type { LockGuard } from './lock';

export function appendAtomically(path: string, lines: string, header: string, guard: LockGuard, notice: (text: string) => void): void {
  let before: Buffer;
  try {
    before = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new AishError(`cannot read ${path}: ${describeFsError(err)} — nothing imported`);
    before = Buffer.from(header);
  }
  // A last line without its newline (a torn write, a hand edit) keeps its bytes and ends here.
  const sep = before.length > 0 && before[before.length - 1] !== 0x0a ? '\n' : '';
  const mode = statSync(path, { throwIfNoEntry: false })?.mode ?? 0o600;
  guard.assertHeld();
  try {
    writeFileAtomic.sync(path, Buffer.concat([before, Buffer.from(sep + lines)]), { mode: 0o600, fsync: true });
  } catch (err) {
    throw new AishError(`cannot write ${path}: ${describeFsError(err)} — nothing imported`);
  }
  fsyncDir(dirname(path));
  if (mode & 0o077) notice(privateNotice(path, (mode & 0o777).toString(8).padStart(4, '0')));
}
