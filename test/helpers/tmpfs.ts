/**
 * Real, hostile filesystems for one test: a tiny tmpfs (disk-full tests) and a read-only bind mount,
 * unmounted when the test ends. Mounting needs root. As with the jail (jail.ts), CI (root, the same
 * kind of machine) must run these tests, so there a refused mount fails the test with mount's own
 * words; elsewhere it skips (null), and the test says so.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { tmpDir } from './tmp';

export const canMount = process.platform === 'linux' && process.getuid?.() === 0;
/** In CI as root, a mount that fails is a failure, not a skip. */
const mountRequired = canMount && Boolean(process.env.CI);

function mount(args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'pipe' });
    return true;
  } catch (err) {
    if (mountRequired) throw new Error(`mount ${args.join(' ')} failed (CI runs as root and must mount): ${String(err)}`, { cause: err });
    return false;
  }
}

/** A tmpfs of `size` (mount's syntax: `64k`, `1m`, more options after a comma), mode 0700; null when mounting is refused. */
export function tinyTmpfs(size: string): string | null {
  const dir = join(tmpDir(), 'full');
  mkdirSync(dir);
  if (!mount(['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir])) return null;
  onTestFinished(() => {
    execFileSync('umount', [dir]);
  });
  return dir;
}

/** Make `dir` (and all below it) read-only in place, as a read-only bind mount; false when mounting is refused. */
export function readOnly(dir: string): boolean {
  if (!mount(['--bind', dir, dir])) return false;
  onTestFinished(() => {
    execFileSync('umount', [dir]);
  });
  // A bind mount takes `ro` only on a remount.
  return mount(['-o', 'remount,ro,bind', dir]);
}

/** Fill the filesystem of `dir` with `<dir>/filler` until about `leave` bytes are free. */
export function fillTo(dir: string, leave: number): void {
  const st = statfsSync(dir);
  const free = Number(st.bavail) * Number(st.bsize);
  writeFileSync(join(dir, 'filler'), Buffer.alloc(Math.max(0, free - leave)));
}
