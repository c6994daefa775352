/** Whole-line appends: a torn or unterminated last line is closed off, never truncated; a header goes into an empty file. */
import { closeSync, constants, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendWholeLines } from '../../src/util/fs-safe';
import { tmpDir } from '../helpers/tmp';

function appendTo(initial: string | null, text: string, header = ''): string {
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
});
