/**
 * A real, tiny filesystem for disk-full tests: a tmpfs mounted for one test and unmounted when it
 * ends. Mounting needs root (CI runs as root); null when it is refused, and the test skips.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { tmpDir } from './tmp';

export const canMount = process.getuid?.() === 0;

/** A tmpfs of `size` (mount's syntax: `64k`, `1m`, more options after a comma), mode 0700; null when mounting is refused. */
export function tinyTmpfs(size: string): string | null {
  const dir = join(tmpDir(), 'full');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    return null;
  }
  onTestFinished(() => {
    execFileSync('umount', [dir]);
  });
  return dir;
}

/** Fill the filesystem of `dir` with `<dir>/filler` until about `leave` bytes are free. */
export function fillTo(dir: string, leave: number): void {
  const st = statfsSync(dir);
  const free = Number(st.bavail) * Number(st.bsize);
  writeFileSync(join(dir, 'filler'), Buffer.alloc(Math.max(0, free - leave)));
}
