/**
 * A config path that is not a regular file, through the real CLI: exit 2 and one line saying what
 * to do. A FIFO there once blocked aish for ever (the module loader reads it by name, synchronously,
 * so the load's own timeout never ran); a directory read as "Cannot find module"; a circle of links
 * as "not found" (and, at the default path, was silently passed over).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('a config path that is not a regular file', () => {
  const cases: Array<[string, (p: string) => void, RegExp]> = [
    [
      'a FIFO',
      (p) => execFileSync('mkfifo', [p]),
      /is not a regular file \(a FIFO or a device\) — point --config \(or \$AISH_CONFIG\) at a file$/,
    ],
    ['a directory', (p) => mkdirSync(p), /is a directory — point --config \(or \$AISH_CONFIG\) at a file$/],
    ['a circle of links', (p) => symlinkSync(p, p), /: its symbolic links go in a circle — fix them, or point --config at a file$/],
  ];
  for (const [name, make, line] of cases) {
    it(`${name}: exit 2, one line, no hang`, async () => {
      const home = tmpDir();
      const p = join(home, 'config.ts');
      make(p);
      const r = await runAish(['--config', p, 'memory', 'list'], { home, timeoutMs: 20_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(line);
    });
  }

  it('at the default path too (no --config): a FIFO there is refused, not waited on', async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    execFileSync('mkfifo', [join(home, '.config', 'aish', 'config.ts')]);
    const r = await runAish(['memory', 'list'], { home, timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.ts is not a regular file/);
  });
});
