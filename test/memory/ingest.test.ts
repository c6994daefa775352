import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileCursor } from '../../src/memory/log/file-cursor';
import { ingestFile } from '../../src/memory/log/ingest';
import { MemoryState } from '../../src/memory/log/state';
import { FIXTURES } from '../helpers/paths';

function load(path: string, piece?: number) {
  const state = new MemoryState();
  const cursor = new FileCursor();
  expect(ingestFile(state, cursor, path, piece)).toBe('done');
  return {
    items: state.active(),
    skipped: state.skipped,
    maxId: state.maxId,
    bad: state.badLines,
    offset: cursor.offset,
    lines: cursor.lines,
  };
}

describe('ingestFile in pieces', () => {
  const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'));

  it('gives the same state whatever the piece size (multi-line objects across a cut, torn ends), read from the file a piece at a time too', () => {
    expect(fixtures.length).toBeGreaterThan(0);
    for (const f of fixtures) {
      const path = join(FIXTURES, f);
      const whole = load(path, Infinity);
      for (const piece of [1, 2, 7, 40, 100, 333]) expect(load(path, piece), `${f}, pieces of ${piece} bytes`).toEqual(whole);
      expect(whole.offset).toBeLessThanOrEqual(readFileSync(path).length);
    }
  });
});
