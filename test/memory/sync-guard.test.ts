/** The sync guards: forgets of items written here counted per writer over 7 days, edits and floods held. */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardIncoming, loadGuard, noteGuard, saveGuard, type GuardMemory } from '../../src/memory/sync/guard';
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
const now = new Date('2026-12-01T00:00:00.000Z');
const DAY = 24 * 3600 * 1000;
/** Writers a and b, first read 8 days ago: known, not new. */
const known = (): GuardMemory => ({
  joined: new Date(now.getTime() - 9 * DAY).toISOString(),
  seen: {
    aaaaaaaaaaaaaaaa: new Date(now.getTime() - 8 * DAY).toISOString(),
    bbbbbbbbbbbbbbbb: new Date(now.getTime() - 8 * DAY).toISOString(),
  },
  forgets: {},
});

describe('the sync guards', () => {
  it('forgets of items written here from a known writer: counted over the window; past the threshold they wait and the earlier ones are put back', () => {
    const path = join(tmpDir(), 'guard.json');
    saveGuard(path, known());
    let g = loadGuard(path, now);
    const l = ledger();
    // 4 forgets a sync from one writer: 10 % of 100 is passed at the third sync.
    const held: number[] = [];
    const back: string[][] = [];
    for (let s = 0; s < 3; s++) {
      const r = guardIncoming(
        [
          batch(
            'aaaaaaaaaaaaaaaa',
            [0, 1, 2, 3].map((k) => forget(1000 + s * 4 + k, 1 + s * 4 + k)),
          ),
        ],
        l,
        view,
        g,
        now,
      );
      held.push(r.held.length);
      back.push(r.putBack.map((h) => h.record.uid));
      g = noteGuard(g, ['aaaaaaaaaaaaaaaa'], r.passed, r.putBack, now);
    }
    expect(held).toEqual([0, 0, 4]);
    // The 8 that applied within the window come back to wait with the 4, once.
    expect(back[2]).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((k) => uid(1000 + k)));
    saveGuard(path, g);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // While they wait, the writer's next forget joins them (and nothing is put back twice).
    const heldForgets = new Set(['aaaaaaaaaaaaaaaa']);
    const again = guardIncoming([batch('aaaaaaaaaaaaaaaa', [forget(1100, 60)])], l, { ...view, heldForgets }, loadGuard(path, now), now);
    expect([again.held.length, again.putBack.length]).toEqual([1, 0]);
    // Another writer has its own count.
    expect(guardIncoming([batch('bbbbbbbbbbbbbbbb', [forget(2000, 50)])], l, view, loadGuard(path, now), now).held).toEqual([]);
    // A week later the window is empty again.
    expect(loadGuard(path, new Date(now.getTime() + 8 * DAY)).forgets).toEqual({});
  });

  it('a writer first read less than 7 days ago (or never) since joining forgets nothing written here without review, however few', () => {
    const l = ledger();
    const joined = new Date(now.getTime() - 30 * DAY).toISOString();
    const fresh: GuardMemory = { joined, seen: { cccccccccccccccc: new Date(now.getTime() - 6 * DAY).toISOString() }, forgets: {} };
    for (const w of ['dddddddddddddddd', 'cccccccccccccccc']) {
      const r = guardIncoming([batch(w, [forget(3000, 9), forget(3001, 700), item(3002)])], l, view, fresh, now);
      expect(r.held.map((h) => [h.why, h.record.uid])).toEqual([['forgets', uid(3000)]]);
      expect(r.batches[0]!.records.map((x) => x.uid)).toEqual([uid(3001), uid(3002)]);
    }
    // Seen from its first sync on: a week later it is known.
    const g = noteGuard({ joined, seen: {}, forgets: {} }, ['dddddddddddddddd'], new Map(), [], now);
    expect(guardIncoming([batch('dddddddddddddddd', [forget(3003, 9)])], l, view, g, now).held).toHaveLength(1);
    const later = new Date(now.getTime() + 7 * DAY + 1);
    expect(guardIncoming([batch('dddddddddddddddd', [forget(3003, 9)])], l, view, g, later).held).toEqual([]);
    // The writers there when this store first synced are the machines it joined: known from the start.
    const first = noteGuard({ seen: {}, forgets: {} }, ['eeeeeeeeeeeeeeee'], new Map(), [], now);
    expect(guardIncoming([batch('eeeeeeeeeeeeeeee', [forget(3004, 9)])], l, view, first, now).held).toEqual([]);
    expect(guardIncoming([batch('ffffffffffffffff', [forget(3005, 9)])], l, view, first, now).held).toHaveLength(1);
    // The first form of guard.json (forget times only) still loads: its writers are not known yet.
    const path = join(tmpDir(), 'guard.json');
    writeFileSync(path, JSON.stringify({ aaaaaaaaaaaaaaaa: [now.toISOString()] }));
    expect(loadGuard(path, now)).toEqual({ seen: {}, forgets: { aaaaaaaaaaaaaaaa: [{ at: now.toISOString() }] } });
  });

  it('an edit of an item written here waits with every forget of it; an edit of a received item applies', () => {
    const r = guardIncoming(
      [
        batch('aaaaaaaaaaaaaaaa', [item(500, { replaces: uid(7) }), item(501, { replaces: uid(700) })]),
        batch('bbbbbbbbbbbbbbbb', [forget(502, 7)]),
      ],
      ledger(),
      view,
      known(),
      now,
    );
    expect(r.held.map((h) => [h.why, h.record.uid])).toEqual([
      ['edit', uid(500)],
      ['edit', uid(502)],
    ]);
    expect(r.batches.flatMap((b) => b.records.map((x) => x.uid))).toEqual([uid(501)]);
  });

  it('more than 200 new items from one writer wait; 200 apply; an empty store takes them all', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => item(5000 + i));
    expect(guardIncoming([batch('aaaaaaaaaaaaaaaa', many(201))], ledger(), view, known(), now).held).toHaveLength(201);
    expect(guardIncoming([batch('aaaaaaaaaaaaaaaa', many(200))], ledger(), view, known(), now).held).toHaveLength(0);
    expect(guardIncoming([batch('aaaaaaaaaaaaaaaa', many(201))], ledger(), { ...view, active: 0 }, known(), now).held).toHaveLength(0);
  });
});
