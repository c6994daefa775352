/** A data directory that is a file: one line that says so and what to pass, whatever the command. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('--data-dir naming a file', () => {
  it('is one line: not a directory, pass a directory with --data-dir', async () => {
    const home = tmpDir();
    const file = join(home, 'passwd');
    writeFileSync(file, 'root:x:0:0\n');
    const expected = `aish: data directory ${file} is a file, not a directory — pass a directory with --data-dir (or AISH_DATA_DIR); it is created if missing\n`;
    for (const args of [['-p', 'hi'], ['memory', 'list'], ['sessions', 'list'], []]) {
      const r = await runAish(['--data-dir', file, ...args], { home, input: 'hello\n:quit\n', env: { OPENAI_API_KEY: 'sk-test' } });
      expect(r.stderr, args.join(' ')).toBe(expected);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
    }
  });

  it('a path under a file names the file', async () => {
    const home = tmpDir();
    const file = join(home, 'f');
    writeFileSync(file, '');
    const r = await runAish(['--data-dir', join(file, 'aish'), 'memory', 'list'], { home });
    expect(r.stderr).toBe(
      `aish: data directory ${join(file, 'aish')}: ${file} is a file, not a directory — pass a directory with --data-dir (or AISH_DATA_DIR); it is created if missing\n`,
    );
    expect(r.code).toBe(2);
  });
});
