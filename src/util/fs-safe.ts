/** File-system steps shared by everything that keeps user data: private directories, fsync, whole-line appends. */
import { chmodSync, closeSync, fdatasyncSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';

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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by the umask; say exactly what we mean.
  chmodSync(dir, 0o700);
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
 */
export function appendWholeLines(fd: number, text: string, prefixIfEmpty = ''): void {
  const size = fstatSync(fd).size;
  let payload = text;
  if (size === 0) payload = prefixIfEmpty + payload;
  else {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) payload = '\n' + payload;
  }
  const buf = Buffer.from(payload, 'utf8');
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  fdatasyncSync(fd);
}
