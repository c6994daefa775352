/** A file of many bad lines: the first ones are named, the rest summed up in one line. */
import { describe, expect, it } from 'vitest';
import { formatSkipped } from '../../src/memory/format';

const bad = (n: number) => Array.from({ length: n }, (_, i) => ({ line: i + 2, reason: 'not valid JSON or JSON5 (x)' }));

describe('formatSkipped', () => {
  it('names every skipped line when there are few', () => {
    expect(formatSkipped('memory.jsonl', bad(20))).toHaveLength(20);
    expect(formatSkipped('memory.jsonl', [{ line: 4, endLine: 6, reason: 'invalid UTF-8 (kept as is)' }])).toEqual([
      'memory.jsonl:4-6: invalid UTF-8 (kept as is)',
    ]);
  });

  it('names the first 20 of a million and sums up the rest in one line', () => {
    const lines = formatSkipped('memory.jsonl', bad(1_000_000));
    expect(lines).toHaveLength(21);
    expect(lines[19]).toBe('memory.jsonl:21: not valid JSON or JSON5 (x)');
    expect(lines[20]).toBe(
      'memory.jsonl: 999980 more lines skipped (lines 22–1000001); `aish memory compact` moves the unusable ones to memory.jsonl.rejected',
    );
  });
});
