/** Which items `:memory review --stale` walks (review/stale.ts), and the record of recall use it reads (review/recall-use.ts). */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uidOf } from '../../src/memory/log/identity';
import { noteRecalled, readRecallUse, recallUsePath } from '../../src/memory/review/recall-use';
import { findDuplicate } from '../../src/memory/review/duplicates';
import { findStale, type StaleItem } from '../../src/memory/review/stale';
import { findSuperseded, overlap, termSet } from '../../src/memory/review/supersede';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

const NOW = new Date('2026-12-06T12:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const item = (id: number, days: number, content: string, extra: Partial<MemoryItem> = {}): MemoryItem => ({
  id,
  ts: ago(days),
  kind: 'fact',
  content,
  ...extra,
});
/** Facts #1, #2, … from lines of `<days old> <text>`. */
const aged = (table: string): MemoryItem[] =>
  table
    .trim()
    .split('\n')
    .map((line, i) => {
      const [, days, content] = /^\s*(\d+) (.+)$/.exec(line)!;
      return item(i + 1, Number(days), content!);
    });
/** Active items, newest first, as the store gives them. */
const active = (...items: MemoryItem[]) => [...items].sort((a, b) => b.ts.localeCompare(a.ts) || b.id - a.id);
const stale = (items: MemoryItem[], recalled: Record<number, number> = {}, pinned: number[] = []) => {
  const byUid = new Map<string, number>();
  for (const [id, days] of Object.entries(recalled)) byUid.set(uidOf(items.find((i) => i.id === Number(id))!), NOW.getTime() - days * DAY);
  return findStale(active(...items), { now: NOW, isPinned: (it) => pinned.includes(it.id), recalled: byUid });
};
const ids = (list: StaleItem[]) => list.map((s) => s.item.id);

describe('findStale (fixed clock)', () => {
  it('an item over 90 days old that [recall] never sent is stale; a younger one, or one recalled lately, is not', () => {
    const list = stale(
      aged(`
        200 the staging host is called zebra
        200 deploys run from the release branch
        200 the office wifi is called hive
        50 backups run nightly at two
        91 the cat is named Miso
        89 the dog is named Pixel`),
      { 2: 10, 3: 120 },
    );
    expect(ids(list)).toEqual([1, 3, 5]);
    expect(list[0]).toMatchObject({ age: '6 months old', unused: true });
    expect(list[0]!.recalled).toBeUndefined();
    // Recalled, but not in the last 90 days: unused all the same, and when is said.
    expect(list[1]).toMatchObject({ unused: true, recalled: NOW.getTime() - 120 * DAY });
  });

  it('pinned items are never stale; prefs are not spared', () => {
    const list = stale([item(1, 400, 'answer tersely', { kind: 'pref' }), item(2, 400, 'deploy with make release')], {}, [2]);
    expect(ids(list)).toEqual([1]);
  });

  it('confirmed within 90 days is not stale; confirmed longer ago counts from then; an unreadable confirmed is ignored', () => {
    const list = stale([
      item(1, 300, 'the staging host is called zebra', { confirmed: ago(30) }),
      item(2, 300, 'the office wifi is called hive', { confirmed: ago(100) }),
      item(3, 300, 'the cat is named Miso', { confirmed: 'last tuesday' }),
    ]);
    expect(ids(list)).toEqual([3, 2]);
    expect(list.map((s) => s.age)).toEqual(['10 months old', '3 months old']);
  });

  it('an old item a newer one updates or repeats is stale even when recalled lately, and names the newest such item', () => {
    const list = stale(
      aged(`
        300 Uses Node 18 in CI
        200 Uses Node 19 in CI
        20 Uses Node 20 in CI
        250 the main database is Postgres 16 on host db1
        10 The main database is Postgres 16 on host db1 now.
        150 prefers tabs for indentation`),
      { 1: 5, 2: 5, 4: 5, 6: 5 },
    );
    expect(list.map((s) => [s.item.id, s.unused, s.by?.item.id, s.by?.how])).toEqual([
      [1, false, 3, 'updated'],
      [4, false, 5, 'repeated'],
      [2, false, 3, 'updated'],
    ]);
  });

  it('an item is never superseded by an older one, one in another scope, or one about something else', () => {
    const list = stale(
      [
        item(1, 300, 'Uses Node 18 in CI'),
        item(2, 400, 'Uses Node 16 in CI'),
        item(3, 10, 'Uses Node 20 in CI', { scope: '/home/u/shop' }),
        item(4, 10, 'I use docker for builds'),
        item(5, 200, 'I use vim'),
      ],
      { 1: 5, 2: 5, 5: 5 },
    );
    // #2 is older than #1: #1 updates it, never the other way round.
    expect(list.map((s) => [s.item.id, s.by?.item.id])).toEqual([[2, 1]]);
  });

  it('the paired search finds what comparing every newer item would (random texts)', () => {
    const words = 'node ci postgres host db1 editor vim emacs deploy release branch staging prod cat dog tabs spaces 16 18 20 uses'.split(
      ' ',
    );
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const items: MemoryItem[] = [];
    for (let id = 1; id <= 300; id++) {
      const len = 1 + rnd(5);
      const text = Array.from({ length: len }, () => words[rnd(words.length)]).join(' ');
      items.push(item(id, 91 + rnd(400), text, rnd(4) === 0 ? { scope: '/p' } : {}));
    }
    const all = active(...items);
    const recalled = Object.fromEntries(items.map((i) => [i.id, 1]));
    const got = new Map(stale(items, recalled).map((s) => [s.item.id, s.by?.item.id]));
    const newer = (a: MemoryItem, b: MemoryItem) => a.ts > b.ts || (a.ts === b.ts && a.id > b.id);
    for (const it of items) {
      const cands = all.filter((o) => o !== it && (o.scope ?? '') === (it.scope ?? '') && newer(o, it));
      // The rule as documented: supersede.ts's, or duplicates.ts's when the two share a term that counts.
      const by = cands.filter(
        (o) => findSuperseded(o, [it]) ?? (findDuplicate(o, [it]) && overlap(termSet(o.content), termSet(it.content)) > 0),
      );
      expect(got.get(it.id), `#${it.id} ${it.content}`).toBe(by[0]?.id);
    }
    expect(got.size).toBeGreaterThan(20);
  });
});

describe('the record of recall use (memory.jsonl.recalled)', () => {
  const sent = (...items: MemoryItem[]) => items.map((item) => ({ item }));
  const tick = () => new Promise((r) => setImmediate(r));

  it('notes each turn on the next tick, 0600; the latest time per item wins; torn and broken lines are passed over', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const a = item(1, 100, 'alpha', { uid: '01JAAAAAAAAAAAAAAAAAAAAAAA' });
    const b = item(2, 100, 'beta');
    noteRecalled(mem, sent(a, b), new Date(ago(30)));
    expect(existsSync(recallUsePath(mem))).toBe(false); // not on the turn's path
    await tick();
    noteRecalled(mem, sent(a), new Date(ago(2)));
    noteRecalled(mem, [], new Date(ago(1)));
    await tick();
    expect(statSync(recallUsePath(mem)).mode & 0o777).toBe(0o600);
    writeFileSync(recallUsePath(mem), readFileSync(recallUsePath(mem), 'utf8') + 'not json\n{"t":"x","uids":["zz"]}\n{"t":"2026-', {
      flag: 'w',
    });
    const use = readRecallUse(mem);
    expect([...use]).toEqual([
      ['01JAAAAAAAAAAAAAAAAAAAAAAA', NOW.getTime() - 2 * DAY],
      [uidOf(b), NOW.getTime() - 30 * DAY],
    ]);
    // A note after the torn line starts on a fresh line, so it counts.
    noteRecalled(mem, sent(b), new Date(ago(3)));
    await tick();
    expect(readRecallUse(mem).get(uidOf(b))).toBe(NOW.getTime() - 3 * DAY);
    expect(readFileSync(recallUsePath(mem), 'utf8')).toContain('{"t":"2026-\n{"t":');
  });

  it('stays bounded: past 512 KiB it is folded to one line per item, the most recently recalled 4,000 kept', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const pool = Array.from({ length: 25_000 }, (_, i) => item(i + 1, 100, `item ${i}`, { uid: `U${String(i).padStart(25, '0')}` }));
    const turnTime = (k: number) => NOW.getTime() - (1000 - k) * 60_000;
    // 250 turns of 100 items each (~3 KB a line): ~750 KB written, so folded on the way.
    for (let k = 0; k < 250; k++) {
      noteRecalled(mem, sent(...pool.slice(k * 100, k * 100 + 100)), new Date(turnTime(k)));
      await tick();
    }
    const text = readFileSync(recallUsePath(mem), 'utf8');
    expect(text.length).toBeLessThan(512 * 1024);
    expect(text).toMatch(/^\{"t":"[^"]+","uids":\["U\d{25}"\]\}\n/); // a folded line
    const use = readRecallUse(mem);
    // The fold kept the 4,000 most recently recalled; the turns since added theirs.
    expect(use.size).toBeGreaterThan(4000);
    expect(use.size).toBeLessThan(25_000);
    const kept = [...use.keys()].sort();
    expect(kept[0]).toBe(`U${String(25_000 - use.size).padStart(25, '0')}`);
    for (const it of pool.slice(24_900)) expect(use.get(uidOf(it))).toBe(turnTime(249));
    expect(statSync(recallUsePath(mem)).mode & 0o777).toBe(0o600);
  });
});
