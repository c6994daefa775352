/**
 * A full disk, for real: memory.jsonl on a tiny tmpfs. Mounting needs root (CI runs as root); the
 * same failure is injected in test/memory/write-failures.test.ts, which runs everywhere.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { canMount, tinyTmpfs } from '../helpers/tmpfs';
import { tmpDir } from '../helpers/tmp';

describe('memory on a full disk (real tmpfs)', () => {
  it.skipIf(!canMount)(
    'ENOSPC mid-append leaves memory.jsonl byte-identical, one line naming the file, exit 1 (needs root to mount a tmpfs)',
    async (ctx) => {
      const dataDir = tinyTmpfs('64k');
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
