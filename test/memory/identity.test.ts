import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStamp, HybridClock } from '../../src/memory/log/hlc';
import { derivedUid, loadIdentity, newIdentity, uidOf } from '../../src/memory/log/identity';
import { addThroughIndex } from '../../src/memory/index/add';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const HLC_RE = /^\d{13}-\d{4}$/;

/** The records in a memory.jsonl, parsed, header left out. */
function records(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => !('meta' in r));
}

const isSorted = (xs: readonly string[]) => xs.every((x, i) => i === 0 || xs[i - 1]! < x);

const OLD_FILE = [
  '{"id":1,"ts":"2025-03-01T10:00:00Z","kind":"fact","content":"Uses Node 20 in CI"}',
  '{"id":2,"ts":"2025-03-01T10:05:00Z","kind":"pref","content":"Terse answers","scope":"/home/me/app"}',
  '{"id":3,"ts":"2025-03-02T08:00:00Z","kind":"forget","target":1}',
  '// a comment typed by hand',
  "{id: 4, ts: '2025-03-03T09:00:00Z', kind: 'pin', target: 2}",
].join('\n');

describe('uid: a ULID per record, monotonic within the process', () => {
  it('gives strictly increasing ULIDs, also within one millisecond and when the clock goes back', async () => {
    await loadIdentity();
    const t = Date.parse('2026-05-13T19:00:00Z');
    const times = [t, t, t, t - 5000, t - 5000, t + 1, t + 1];
    const uids = times.map((ms) => newIdentity(new Date(ms)).uid);
    for (const u of uids) expect(u).toMatch(ULID_RE);
    expect(isSorted(uids)).toBe(true);
  });
});

describe('hlc: a hybrid logical clock stamp', () => {
  it('is <13-digit ms>-<4-digit counter> and sorts in time order as plain strings', () => {
    expect(formatStamp(1764182400000, 3)).toBe('1764182400000-0003');
    expect(formatStamp(5, 0)).toBe('0000000000005-0000');
    expect(formatStamp(999, 12) < formatStamp(1000, 0)).toBe(true);
  });

  it('never goes backwards when the wall clock does, and counts within a millisecond', () => {
    const c = new HybridClock();
    const stamps = [1000, 1000, 2000, 1500, 900, 2000, 2001].map((w) => c.next(w));
    expect(stamps).toEqual([
      '0000000001000-0000',
      '0000000001000-0001',
      '0000000002000-0000',
      '0000000002000-0001',
      '0000000002000-0002',
      '0000000002000-0003',
      '0000000002001-0000',
    ]);
    expect(isSorted(stamps)).toBe(true);
  });

  it('moves past a stamp read from the file, and ignores what is not a stamp', () => {
    const c = new HybridClock();
    c.observe('0000000005000-0007');
    expect(c.next(1000)).toBe('0000000005000-0008');
    c.observe('0000000004000-0000'); // older: no effect
    c.observe('9999999999999'); // not a stamp
    c.observe(undefined);
    expect(c.next(1000)).toBe('0000000005000-0009');
    expect(c.next(6000)).toBe('0000000006000-0000');
  });

  it('borrows the next millisecond after 10,000 stamps in one', () => {
    const c = new HybridClock();
    let last = '';
    for (let i = 0; i < 10_001; i++) {
      const s = c.next(7);
      expect(s > last).toBe(true);
      last = s;
    }
    expect(last).toBe('0000000000008-0000');
  });

  it('a write stamps after every stamp the store holds, even one ahead of this machine’s clock', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const ahead = formatStamp(Date.now() + 60_000, 42);
    writeFileSync(
      path,
      `{"id":1,"uid":"01JV0000000000000000000000","hlc":"${ahead}","ts":"2026-01-01T00:00:00Z","kind":"fact","content":"x"}\n`,
    );
    const store = MemoryStore.open(path);
    const item = await store.add('fact', 'written after');
    expect(item.hlc! > ahead).toBe(true);
    // The same through the index (`aish memory add`).
    const ahead2 = formatStamp(Date.now() + 120_000, 0);
    writeFileSync(
      path,
      readFileSync(path, 'utf8') + `{"id":9,"hlc":"${ahead2}","ts":"2026-01-01T00:00:00Z","kind":"fact","content":"y"}\n`,
    );
    const r = await addThroughIndex(path, 'fact', 'through the index', {}, { notice: () => {} });
    expect(r.item.hlc! > ahead2).toBe(true);
    const after = await addThroughIndex(path, 'fact', 'and again', {}, { notice: () => {} });
    expect(after.item.hlc! > r.item.hlc!).toBe(true);
  });

  it('a store whose clock goes back still writes stamps in order', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    let now = Date.parse('2026-05-13T19:00:00Z');
    const store = MemoryStore.open(path, { now: () => new Date(now) });
    for (const step of [0, 1000, -60_000, -60_000, 5]) {
      now += step;
      await store.add('fact', `item at ${now} ${step}`);
    }
    const stamps = records(path).map((r) => r.hlc as string);
    expect(stamps).toHaveLength(5);
    expect(isSorted(stamps)).toBe(true);
    expect(isSorted(records(path).map((r) => r.uid as string))).toBe(true);
  });
});

describe('derived uid of a record written before uids', () => {
  it('is the same for two copies of one old file, whatever ids they use, and ULID-shaped', () => {
    const a = join(tmpDir(), 'memory.jsonl');
    const b = join(tmpDir(), 'memory.jsonl');
    writeFileSync(a, OLD_FILE + '\n');
    // The same records on another machine, renumbered (ids are local) and in another order.
    writeFileSync(
      b,
      [
        '{"id":12,"ts":"2025-03-01T10:05:00Z","kind":"pref","content":"Terse answers","scope":"/home/me/app"}',
        '{"id":30,"ts":"2025-03-01T10:00:00Z","kind":"fact","content":"Uses Node 20 in CI"}',
      ].join('\n') + '\n',
    );
    const uidsOf = (p: string) =>
      new Map(
        MemoryStore.open(p)
          .items()
          .map((it) => [it.content, uidOf(it)]),
      );
    expect(uidsOf(a).get('Terse answers')).toMatch(ULID_RE);
    expect(uidsOf(a).get('Terse answers')).toBe(uidsOf(b).get('Terse answers'));
    expect([...uidsOf(b).values()]).toHaveLength(2);
  });

  it('differs when kind, time, content, scope or target differ, and its time part sorts by ts', () => {
    const base = { ts: '2025-03-01T10:00:00Z', kind: 'fact', content: 'Uses Node 20 in CI' };
    const variants = [
      base,
      { ...base, content: 'Uses Node 22 in CI' },
      { ...base, kind: 'pref' },
      { ...base, ts: '2025-03-01T10:00:01Z' },
      { ...base, scope: '/home/me/app' },
      { ts: base.ts, kind: 'forget', target: 1 },
      { ts: base.ts, kind: 'forget', target: 2 },
    ];
    const uids = variants.map((v) => derivedUid(v));
    expect(new Set(uids).size).toBe(variants.length);
    expect(derivedUid({ ...base })).toBe(uids[0]);
    expect(derivedUid({ ts: '2025-03-01T09:00:00Z', kind: 'fact', content: 'z' }) < uids[0]!).toBe(true);
    // A record's own uid wins over the derived one.
    expect(uidOf({ ...base, uid: '01JV0000000000000000000000' })).toBe('01JV0000000000000000000000');
  });

  it('an old file loads unchanged: byte for byte, no uid added to its records by reading', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, OLD_FILE + '\n');
    const before = readFileSync(path);
    const store = MemoryStore.open(path);
    expect(store.items().map((it) => it.id)).toEqual([2]);
    expect(store.isPinned(store.get(2)!)).toBe(true);
    expect(store.items()[0]).not.toHaveProperty('uid');
    store.reload(true);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('forget, pin, unpin and edit name their target by uid too', () => {
  it('writes target_uid beside target: the target’s own uid, or the derived one for an old item', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, '{"id":1,"ts":"2025-03-01T10:00:00Z","kind":"fact","content":"old item"}\n');
    const store = MemoryStore.open(path);
    const old = store.get(1)!;
    const fresh = await store.add('fact', 'new item');
    await store.setPinned(1, true);
    await store.setPinned(1, false);
    const edited = await store.edit(fresh.id, 'new item, edited');
    await store.forget(1);
    const recs = records(path);
    const byId = new Map(recs.map((r) => [r.id, r]));
    expect(byId.get(3)).toMatchObject({ kind: 'pin', target: 1, target_uid: derivedUid(old) });
    expect(byId.get(4)).toMatchObject({ kind: 'unpin', target: 1, target_uid: derivedUid(old) });
    expect(edited.ok && edited.item.id).toBe(5);
    expect(byId.get(6)).toMatchObject({ kind: 'forget', target: fresh.id, target_uid: fresh.uid });
    expect(byId.get(7)).toMatchObject({ kind: 'forget', target: 1, target_uid: derivedUid(old) });
    // Every record written carries its own uid and stamp, all distinct and in order.
    const written = recs.slice(1);
    for (const r of written) {
      expect(r.uid).toMatch(ULID_RE);
      expect(r.hlc).toMatch(HLC_RE);
    }
    expect(isSorted(written.map((r) => r.hlc as string))).toBe(true);
    expect(new Set(written.map((r) => r.uid)).size).toBe(written.length);
  });

  it('supersede, clear and import stamp every record they write', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    const a = await store.add('fact', 'uses node 18 in ci');
    const s = await store.supersede(a.id, 'fact', 'uses node 20 in ci');
    await store.importItems([{ kind: 'pref', content: 'imported one' }]);
    const gone = await store.clear();
    expect(gone).toHaveLength(2);
    const recs = records(path);
    expect(recs.find((r) => r.kind === 'forget' && r.target === a.id)).toMatchObject({ target_uid: a.uid });
    expect(recs.find((r) => r.kind === 'forget' && r.target === s.item.id)).toMatchObject({ target_uid: s.item.uid });
    for (const r of recs) expect(r).toMatchObject({ uid: expect.stringMatching(ULID_RE), hlc: expect.stringMatching(HLC_RE) });
    expect(new Set(recs.map((r) => r.uid)).size).toBe(recs.length);
  });
});
