/** The sync guards: forgets of items written here counted per writer over 7 days, edits and floods held. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countForgets, guardIncoming, loadForgetTimes, saveForgetTimes } from '../../src/memory/sync/guard';
import type { WriterBatch } from '../../src/memory/sync/incoming';
import { Ledger } from '../../src/memory/sync/ledger';
import type { WireRecord } from '../../src/memory/sync/wire';
import { tmpDir } from '../helpers/tmp';

const uid = (i: number) => `01GUARD${String(i).padStart(19, '0')}`;
const ts = '2026-11-26T19:31:30.946Z';
const forget = (i: number, target: number): WireRecord => ({
  uid: uid(i),
  hlc: '1795721490946-0000',
  ts,
  kind: 'forget',
  target_uid: uid(target),
});
const item = (i: number, extra: object = {}): WireRecord => ({
  uid: uid(i),
  hlc: '1795721490946-0000',
  ts,
  kind: 'pref',
  content: `p ${i}`,
  ...extra,
});
const batch = (writer: string, records: WireRecord[]): WriterBatch => ({ writer, key: writer, name: writer, records, end: 0, bad: 0 });

/** A store of 100 items written here (uids 1..100). */
const view = { isHere: (u: string) => u <= uid(100), active: 100, heldEdits: new Set<string>() };
const ledger = () => Ledger.load(join(tmpDir(), 'ledger'));

describe('the sync guards', () => {
  it('forgets of items written here: counted per writer over the window; past the threshold they wait, other writers unaffected', () => {
    const now = new Date('2026-12-01T00:00:00.000Z');
    const path = join(tmpDir(), 'guard.json');
    let times = loadForgetTimes(path, now);
    const l = ledger();
    // 5 forgets a sync from one writer: 10 % of 100 is passed at the third sync.
    const held: number[] = [];
    for (let s = 0; s < 3; s++) {
      const r = guardIncoming(
        [
          batch(
            'aaaaaaaaaaaaaaaa',
            [0, 1, 2, 3, 4].map((k) => forget(1000 + s * 5 + k, 1 + s * 5 + k)),
          ),
        ],
        l,
        view,
        times,
      );
      held.push(r.held.length);
      times = countForgets(times, r.passed, now);
    }
    expect(held).toEqual([0, 0, 5]);
    saveForgetTimes(path, times);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // Another writer has its own count.
    expect(guardIncoming([batch('bbbbbbbbbbbbbbbb', [forget(2000, 50)])], l, view, loadForgetTimes(path, now)).held).toEqual([]);
    // A week later the window is empty again.
    const later = loadForgetTimes(path, new Date(now.getTime() + 8 * 24 * 3600 * 1000));
    expect(later).toEqual({});
  });

  it('an edit of an item written here waits with every forget of it; an edit of a received item applies', () => {
    const r = guardIncoming(
      [
        batch('aaaaaaaaaaaaaaaa', [item(500, { replaces: uid(7) }), item(501, { replaces: uid(700) })]),
        batch('bbbbbbbbbbbbbbbb', [forget(502, 7)]),
      ],
      ledger(),
      view,
      {},
    );
    expect(r.held.map((h) => [h.why, h.record.uid])).toEqual([
      ['edit', uid(500)],
      ['edit', uid(502)],
    ]);
    expect(r.batches.flatMap((b) => b.records.map((x) => x.uid))).toEqual([uid(501)]);
  });

  it('more than 200 new items from one writer wait; 200 apply; an empty store takes them all', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => item(5000 + i));
    expect(guardIncoming([batch('aaaaaaaaaaaaaaaa', many(201))], ledger(), view, {}).held).toHaveLength(201);
    expect(guardIncoming([batch('aaaaaaaaaaaaaaaa', many(200))], ledger(), view, {}).held).toHaveLength(0);
    expect(guardIncoming([batch('aaaaaaaaaaaaaaaa', many(201))], ledger(), { ...view, active: 0 }, {}).held).toHaveLength(0);
  });
});
