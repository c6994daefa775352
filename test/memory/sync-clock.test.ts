/** Sync and the clock: stamps from a clock set ahead, the report's wording, a received record's field order. */
import { describe, expect, it } from 'vitest';
import { formatStamp, HybridClock, MAX_AHEAD_MS, stampTime } from '../../src/memory/log/hlc';
import { takeAtThisClock, type WriterBatch } from '../../src/memory/sync/incoming';
import { reportLine, type SyncReport } from '../../src/memory/sync/report';
import { parseWireLine, type WireRecord } from '../../src/memory/sync/wire';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');

describe('the hybrid clock and stamps from the future', () => {
  it('moves past a stamp up to ten minutes ahead of the wall clock, never past one further ahead', () => {
    const c = new HybridClock();
    c.observe(formatStamp(NOW + 60_000, 3), NOW);
    expect(c.next(NOW)).toBe(formatStamp(NOW + 60_000, 4));
    const d = new HybridClock();
    d.observe(formatStamp(NOW + MAX_AHEAD_MS + 1, 0), NOW);
    d.observe(formatStamp(NOW + 5 * 365 * 86_400_000, 0), NOW);
    expect(d.next(NOW)).toBe(formatStamp(NOW, 0));
  });
});

describe('takeAtThisClock', () => {
  const batch = (records: WireRecord[]): WriterBatch => ({
    writer: 'a'.repeat(16),
    key: 'a'.repeat(16),
    name: 'x',
    records,
    end: 0,
    bad: 0,
  });

  it('takes a stamp, a time or a pin time more than ten minutes ahead at this clock, and counts the new ones', () => {
    const far = NOW + 3 * 365 * 86_400_000;
    const b = batch([
      { uid: 'U1AAAAAAAAAA', hlc: formatStamp(far, 0), ts: new Date(far).toISOString(), kind: 'fact', content: 'both ahead' },
      { uid: 'U2AAAAAAAAAA', hlc: formatStamp(NOW - 1000, 0), ts: new Date(far).toISOString(), kind: 'fact', content: 'time ahead' },
      {
        uid: 'U3AAAAAAAAAA',
        hlc: formatStamp(NOW + MAX_AHEAD_MS - 1, 0),
        ts: new Date(NOW).toISOString(),
        kind: 'fact',
        content: 'close enough',
      },
      { uid: 'U4AAAAAAAAAA', hlc: formatStamp(far, 0), ts: new Date(NOW).toISOString(), kind: 'pin', target_uid: 'U1AAAAAAAAAA' },
      {
        uid: 'U5AAAAAAAAAA',
        hlc: formatStamp(NOW, 0),
        ts: new Date(NOW).toISOString(),
        kind: 'fact',
        content: 'pinned ahead',
        pinned: true,
        pinned_at: new Date(far).toISOString(),
      },
      // Confirmed in a year to come: it would never be stale.
      {
        uid: 'U6AAAAAAAAAA',
        hlc: formatStamp(NOW, 0),
        ts: new Date(NOW).toISOString(),
        kind: 'fact',
        content: 'kept ahead',
        confirmed: new Date(far).toISOString(),
      },
    ]);
    let n = 0;
    const stamp = () => formatStamp(NOW, ++n);
    const known = new Set(['U4AAAAAAAAAA']);
    expect(takeAtThisClock([b], new Date(NOW), stamp, (uid) => !known.has(uid))).toBe(4);
    const [both, time, close, pin, pinned, kept] = b.records as unknown as Array<Record<string, unknown>>;
    expect(both).toMatchObject({ hlc: formatStamp(NOW, 1), ts: new Date(NOW).toISOString(), content: 'both ahead' });
    expect(time).toMatchObject({ hlc: formatStamp(NOW - 1000, 0), ts: new Date(NOW).toISOString() });
    expect(close!.hlc).toBe(formatStamp(NOW + MAX_AHEAD_MS - 1, 0));
    expect(stampTime(pin!.hlc as string)).toBe(NOW);
    expect(pinned).toMatchObject({ pinned_at: new Date(NOW).toISOString(), hlc: formatStamp(NOW, 0) });
    expect(kept).toMatchObject({ confirmed: new Date(NOW).toISOString(), ts: new Date(NOW).toISOString() });
  });
});

describe('the sync report', () => {
  const base: SyncReport = {
    sent: 1,
    received: 2,
    machines: 1,
    conflicts: 0,
    forgotten: 0,
    held: { private: 1, secret: 0, local: 0 },
    dryRun: false,
  };

  it('a dry run says what would happen, in no past tense', () => {
    const line = reportLine({ ...base, dryRun: true, future: 1 });
    expect(line).toBe(
      "would send 1, receive 2 from 1 machine, 1 record from the future to be taken at this clock (another machine's clock is ahead); would keep on this machine: 1 private",
    );
    expect(line).not.toMatch(/synced|sent|received|\bkept\b/);
  });

  it('a sync says what it did, records from the future included', () => {
    expect(reportLine({ ...base, future: 2 })).toBe(
      "synced: sent 1, received 2 from 1 machine, 2 records from the future taken at this clock (another machine's clock is ahead); kept on this machine: 1 private",
    );
  });
});

describe('a received line keeps its fields in the order written', () => {
  it('whatever that order, with a stamp made from ts placed after the uid', () => {
    const p = parseWireLine('{"content":"x","kind":"fact","ts":"2026-01-01T00:00:00.000Z","uid":"U1AAAAAAAAAA","tags":["a"],"extra":1}');
    expect('record' in p && Object.keys(p.record)).toEqual(['content', 'kind', 'ts', 'uid', 'hlc', 'tags']);
    const q = parseWireLine(
      '{"uid":"U1AAAAAAAAAA","hlc":"1767225600000-0000","ts":"2026-01-01T00:00:00.000Z","kind":"fact","pinned":true,"content":"y"}',
    );
    expect('record' in q && Object.keys(q.record)).toEqual(['uid', 'hlc', 'ts', 'kind', 'pinned', 'content']);
  });
});
