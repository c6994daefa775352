/** Whole-line appends: a torn or unterminated last line is closed off, never truncated; a header goes into an empty file; a failed append leaves the file as it was. And reading a regular file whole or in part. */
import { closeSync, constants, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendUndoFailed, appendWholeLines, describeFsError, readRegularFile } from '../../src/util/fs-safe';
import { failWritesContaining } from '../helpers/fail-writes';
import { tmpDir } from '../helpers/tmp';

function appendTo(initial: string | null, text: string | Uint8Array, header = ''): string {
  const path = join(tmpDir(), 'f.jsonl');
  if (initial !== null) writeFileSync(path, initial);
  const fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
  try {
    appendWholeLines(fd, text, header);
  } finally {
    closeSync(fd);
  }
  return readFileSync(path, 'utf8');
}

describe('appendWholeLines', () => {
  it('appends after a complete last line', () => {
    expect(appendTo('{"a":1}\n', '{"b":2}\n')).toBe('{"a":1}\n{"b":2}\n');
  });
  it('starts on a fresh line after a torn or unterminated last line, keeping it', () => {
    expect(appendTo('{"a":1}\n{"b":', '{"c":3}\n')).toBe('{"a":1}\n{"b":\n{"c":3}\n');
    expect(appendTo('{"a":1}', '{"c":3}\n')).toBe('{"a":1}\n{"c":3}\n');
  });
  it('writes the header first into an empty file, and only then', () => {
    expect(appendTo(null, 'x\n', 'H\n')).toBe('H\nx\n');
    expect(appendTo('', 'x\n', 'H\n')).toBe('H\nx\n');
    expect(appendTo('y\n', 'x\n', 'H\n')).toBe('y\nx\n');
  });
  it('takes bytes as well as text', () => {
    expect(appendTo('{"a":1}', Buffer.from([0x63, 0xe9, 0x0a]))).toBe('{"a":1}\nc\ufffd\n');
  });

  // A disk that fills up mid-write: the first 4 KB land, then ENOSPC.
  it.each([
    ['after a complete last line', '{"a":1}\n'],
    ['after an unterminated last line (the newline it adds is undone too)', '{"a":1}'],
    ['into an empty file (the header is undone too)', ''],
  ])('a write that fails part-way leaves the file byte-identical: %s', (_name, initial) => {
    const path = join(tmpDir(), 'f.jsonl');
    writeFileSync(path, initial);
    const fd = openSync(path, constants.O_RDWR | constants.O_APPEND);
    const undo = failWritesContaining('MARK', 4096);
    let thrown: unknown;
    try {
      appendWholeLines(fd, `{"big":"MARK${'x'.repeat(11 * 1024)}"}\n`, 'H\n');
    } catch (err) {
      thrown = err;
    } finally {
      undo();
      closeSync(fd);
    }
    expect((thrown as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(appendUndoFailed(thrown)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(initial);
  });

  it('names common errors in words', () => {
    expect(describeFsError(Object.assign(new Error('ENOSPC: no space'), { code: 'ENOSPC' }))).toBe('no space left on device');
    expect(describeFsError(Object.assign(new Error('EIO: i/o'), { code: 'EIO' }))).toBe('input/output error');
    expect(describeFsError(new Error('something else\nmore'))).toBe('something else');
  });
});

describe('readRegularFile', () => {
  it('the whole file, its first or its last bytes (fewer when it is shorter); ENOENT and a directory throw', () => {
    const dir = tmpDir();
    const path = join(dir, 'f.txt');
    writeFileSync(path, 'abcdefghij');
    expect(readRegularFile(path).toString()).toBe('abcdefghij');
    expect(readRegularFile(path, { first: 4 }).toString()).toBe('abcd');
    expect(readRegularFile(path, { last: 4 }).toString()).toBe('ghij');
    expect(readRegularFile(path, { first: 99 }).toString()).toBe('abcdefghij');
    expect(readRegularFile(path, { last: 99 }).toString()).toBe('abcdefghij');
    expect(() => readRegularFile(join(dir, 'none'))).toThrow(expect.objectContaining({ code: 'ENOENT' }) as Error);
    expect(() => readRegularFile(dir)).toThrow();
  });
});
