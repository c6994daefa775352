/**
 * A full disk, for real: memory.jsonl on a tiny tmpfs. Mounting needs root (CI runs as root); the
 * same failure is injected in test/memory/write-failures.test.ts, which runs everywhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const isRoot = process.getuid?.() === 0;

/** A 64 KiB tmpfs, unmounted when the test ends; null when mounting is refused (a container without the capability). */
function tinyTmpfs(): string | null {
  const dir = join(tmpDir(), 'full');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    return null;
  }
  onTestFinished(() => {
    execFileSync('umount', [dir]);
  });
  return dir;
}

describe('memory on a full disk (real tmpfs)', () => {
  it.skipIf(!isRoot)(
    'ENOSPC mid-append leaves memory.jsonl byte-identical, one line naming the file, exit 1 (needs root to mount a tmpfs)',
    async (ctx) => {
      const dataDir = tinyTmpfs();
      if (!dataDir) return ctx.skip('mount -t tmpfs was refused');
      const path = join(dataDir, 'memory.jsonl');
      // ~40 KiB of items: what is left (after the lock's owner file) is less than the next item
      const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
      for (let id = 1; id <= 40; id++)
        lines.push(JSON.stringify({ id, ts: '2026-05-13T19:01:01Z', kind: 'fact', content: `item ${id} `.padEnd(960, '.') }));
      writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 });
      const before = readFileSync(path);

      const r = await runAish(['--data-dir', dataDir, 'memory', 'add', 'fact', 'x'.repeat(30 * 1024)], { home: tmpDir() });
      expect(r.stderr).toBe(`aish: cannot write ${path}: no space left on device — nothing was written\n`);
      expect(r.code).toBe(1);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(existsSync(`${path}.lock`)).toBe(false);

      // a small item still fits, and lands on a fresh line after the untouched file
      const ok = await runAish(['--data-dir', dataDir, 'memory', 'add', 'fact', 'small'], { home: tmpDir() });
      expect(ok).toMatchObject({ code: 0, stdout: 'added 41 (fact)\n', stderr: '' });
      expect(readFileSync(path).subarray(0, before.length).equals(before)).toBe(true);
    },
  );
});
