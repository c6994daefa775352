import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/memory/log/parse';
import { MemoryState } from '../../src/memory/log/state';

const line = (id: number, ts: string, content = `c${id}`) => JSON.stringify({ id, ts, kind: 'fact', content });

describe('MemoryState', () => {
  it('orders newest first when the file is not in time order (hand edits)', () => {
    const s = new MemoryState();
    s.ingest(
      [
        line(1, '2026-05-13T19:00:03Z'),
        line(2, '2026-05-13T19:00:01Z'),
        line(3, '2026-05-13T19:00:02.500Z'),
        line(4, '2026-05-13T21:00:02+02:00'), // same instant as 19:00:02Z, not in canonical form
        line(5, '2026-05-13T19:00:03Z'), // same time as id 1: higher id first
      ].join('\n') + '\n',
      1,
    );
    expect(s.active().map((i) => i.id)).toEqual([5, 1, 3, 4, 2]);
  });

  it('walks backwards when the file is in time order', () => {
    const s = new MemoryState();
    s.ingest([line(1, '2026-01-01T00:00:00Z'), line(2, '2026-01-02T00:00:00Z'), line(3, '2026-01-02T00:00:00Z')].join('\n') + '\n', 1);
    expect(s.active().map((i) => i.id)).toEqual([3, 2, 1]);
  });

  it('takes back a provisional last line completely', () => {
    const s = new MemoryState();
    s.ingest(line(1, '2026-01-01T00:00:00Z') + '\n', 1);
    s.ingestProvisional(line(9, '2026-01-02T00:00:00Z'), 2, false);
    expect(s.active().map((i) => i.id)).toEqual([9, 1]);
    expect(s.maxId).toBe(9);
    s.rollbackProvisional();
    expect(s.active().map((i) => i.id)).toEqual([1]);
    expect(s.maxId).toBe(1);
    expect(s.get(9)).toBeUndefined();
    // a torn provisional line is reported while it is there, and gone after rollback
    s.ingestProvisional('{"id":2,"ts":"2026', 2, false);
    expect(s.skipped).toHaveLength(1);
    expect(s.maxId).toBe(2); // the id it shows is reserved while it stands
    s.rollbackProvisional();
    expect(s.skipped).toHaveLength(0);
    // and the same id can then arrive complete
    s.ingest(line(2, '2026-01-03T00:00:00Z') + '\n', 2);
    expect(s.skipped).toEqual([]);
    expect(s.active().map((i) => i.id)).toEqual([2, 1]);
  });

  it('handles huge and sparse ids from hand edits', () => {
    const s = new MemoryState();
    s.ingest(
      [
        line(3, '2026-01-01T00:00:00Z'),
        line(9_007_199_254_740_991, '2026-01-02T00:00:00Z'),
        line(5_000_000, '2026-01-03T00:00:00Z'),
        line(3, '2026-01-04T00:00:00Z'),
      ].join('\n') + '\n',
      1,
    );
    expect(s.maxId).toBe(9_007_199_254_740_991);
    expect(s.skipped).toEqual([{ line: 4, reason: 'duplicate id 3 (first used on line 1)' }]);
    expect(s.get(5_000_000)?.content).toBe('c5000000');
  });
});

describe('isoTime', () => {
  it('agrees with Date.parse on canonical and other forms', () => {
    const samples = [
      '2026-05-13T19:01:01Z',
      '0050-06-01T00:00:00Z', // Date.UTC would read year 50 as 1950
      '2026-05-13T19:01:01.123Z',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2026-02-30T00:00:00.000Z',
      '2026-13-01T00:00:00Z',
      '2026-12-31T23:59:59.999Z',
      '2026-12-31T24:00:00Z',
      '1999-04-31T00:00:00Z',
      '2026-05-13T19:01:01+02:00',
      '2026-05-13',
      '2026-05-13T19:01:01.1Z',
      '2026-05-13T19:01:0aZ',
      'yesterday',
      '',
    ];
    for (const ts of samples) expect(isoTime(ts), ts).toEqual(Date.parse(ts));
    let t = Date.parse('1970-01-01T00:00:00Z');
    for (let i = 0; i < 2000; i++) {
      t += Math.floor(86_400_000 * 11.37) + 7_777;
      const ts = new Date(t).toISOString();
      expect(isoTime(ts)).toBe(t);
      expect(isoTime(ts.replace(/\.\d{3}Z$/, 'Z'))).toBe(Date.parse(ts.replace(/\.\d{3}Z$/, 'Z')));
    }
  });
});
