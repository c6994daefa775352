import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextIfExists } from '../../src/util/read-text';
import { tmpDir } from '../helpers/tmp';

describe('readTextIfExists', () => {
  it("the file's text, and '' when there is no file", () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'a'), 'one\ntwo\n');
    expect(readTextIfExists(join(dir, 'a'))).toBe('one\ntwo\n');
    expect(readTextIfExists(join(dir, 'missing'))).toBe('');
    expect(readTextIfExists(join(dir, 'no-dir', 'missing'))).toBe('');
  });

  it('any other failure is thrown, not read as empty', () => {
    const dir = tmpDir();
    mkdirSync(join(dir, 'd'));
    expect(() => readTextIfExists(join(dir, 'd'))).toThrow(/EISDIR/);
    writeFileSync(join(dir, 'f'), 'x');
    expect(() => readTextIfExists(join(dir, 'f', 'below'))).toThrow(/ENOTDIR/);
  });
});
