/** Prompt history read back from a file a user (or anything) may have written. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputHistory } from '../../src/sessions/input-history';
import { tmpDir } from '../helpers/tmp';

describe('input history from a hand-edited or hostile file', () => {
  it('JSON strings, plain lines and broken JSON are history; other JSON values are not', () => {
    const path = join(tmpDir(), 'input-history');
    writeFileSync(
      path,
      ['"ls -la"', 'git status', '"multi\\nline"', '42', '{"a":1}', '"unterminated', '  "spaced"', '\u00a0"nbsp"'].join('\n') + '\n',
    );
    expect(new InputHistory(path).entries).toEqual(['ls -la', 'git status', 'multi\nline', '"unterminated', 'spaced', '\u00a0"nbsp"']);
  });

  it('a million plain lines: the last 1000 are kept', () => {
    const path = join(tmpDir(), 'input-history');
    writeFileSync(path, Array.from({ length: 1_000_000 }, (_, i) => `cmd ${i}`).join('\n') + '\n');
    const h = new InputHistory(path);
    expect(h.entries).toHaveLength(1000);
    expect(h.entries.at(-1)).toBe('cmd 999999');
  });

  it('a directory in its place, or nothing there: no history, no error', () => {
    const dir = tmpDir();
    mkdirSync(join(dir, 'input-history'));
    expect(new InputHistory(join(dir, 'input-history')).entries).toEqual([]);
    expect(new InputHistory(join(dir, 'missing')).entries).toEqual([]);
  });
});
