import { closeSync, fsyncSync, mkdirSync, openSync, statSync, chmodSync } from 'node:fs';
import { dirname } from 'node:path';

/** Private data lives in 0700 directories (SPEC §2). Existing directories are left as the user set them. */
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

export function parentDir(file: string): string {
  return dirname(file);
}
