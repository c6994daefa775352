/** The sync ledger: facts in a log, folded into a sorted snapshot read by binary search. */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/memory/sync/ledger';
import { tmpDir } from '../helpers/tmp';

const uid = (i: number) => `01LEDGER${String(i).padStart(18, '0')}`;

describe('the sync ledger', () => {
  it('keeps items, forgets, pins and replacements across loads, and ignores a torn or unknown line', () => {
    const path = join(tmpDir(), 'ledger');
    const l = Ledger.load(path);
    l.item(uid(1), 7);
    l.item(uid(2), 8, uid(1));
    l.item(uid(3), 0, uid(1));
    l.other(uid(4));
    l.forget(uid(1));
    l.pin(uid(2), { hlc: '1795721490946-0000', writer: 'aaaaaaaaaaaaaaaa', on: true });
    l.flush();
    appendFileSync(path, 'i 01TORN');
    const m = Ledger.load(path);
    expect(m.itemOf(uid(1))).toEqual({ id: 7 });
    expect(m.itemOf(uid(2))).toEqual({ id: 8, replaces: uid(1) });
    expect(m.isForgotten(uid(1))).toBe(true);
    expect(m.isForgotten(uid(2))).toBe(false);
    expect(m.knows(uid(4))).toBe(true);
    expect(m.knows(uid(5))).toBe(false);
    expect(m.replacers(uid(1)).sort()).toEqual([uid(2), uid(3)]);
    expect(m.pinOf(uid(2))).toEqual({ hlc: '1795721490946-0000', writer: 'aaaaaaaaaaaaaaaa', on: true });
    expect(m.pinWins(uid(2), '1795721490946-0000', 'bbbbbbbbbbbbbbbb')).toBe(true);
    expect(m.pinWins(uid(2), '1795721490945-0009', 'zzzzzzzzzzzzzzzz')).toBe(false);
  });

  it('a long log is folded into the snapshot: the same answers, read from the sorted file, and the log starts over', () => {
    const path = join(tmpDir(), 'ledger');
    const l = Ledger.load(path);
    for (let i = 1; i <= 5000; i++) l.item(uid(i), i, i % 100 === 0 ? uid(i - 1) : undefined);
    for (let i = 1; i <= 5000; i += 7) l.forget(uid(i));
    l.pin(uid(42), { hlc: '1795721490946-0001', writer: 'cccccccccccccccc', on: false });
    l.other(uid(9999));
    l.flush();
    const m = Ledger.load(path); // folds
    expect(existsSync(`${path}.snap`)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('');
    for (const i of [1, 2, 99, 100, 2500, 4999, 5000]) expect(m.itemOf(uid(i))?.id).toBe(i);
    expect(m.itemOf(uid(100))?.replaces).toBe(uid(99));
    expect(m.replacers(uid(99))).toEqual([uid(100)]);
    expect(m.itemOf(uid(5001))).toBeUndefined();
    expect(m.isForgotten(uid(8))).toBe(true);
    expect(m.isForgotten(uid(9))).toBe(false);
    expect(m.pinOf(uid(42))?.on).toBe(false);
    expect(m.knows(uid(9999))).toBe(true);
    // New facts after the fold override the snapshot's, and survive a reload.
    m.item(uid(2500), 77);
    m.flush();
    const n = Ledger.load(path);
    expect(n.itemOf(uid(2500))?.id).toBe(77);
    // Preloaded (a full pass over the store), it answers the same without the file.
    n.preload();
    expect(n.itemOf(uid(2500))?.id).toBe(77);
    expect(n.itemOf(uid(4999))?.id).toBe(4999);
    expect(n.isForgotten(uid(8))).toBe(true);
    expect(n.replacers(uid(99))).toEqual([uid(100)]);
  });
});
