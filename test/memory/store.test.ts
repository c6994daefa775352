import { readFileSync, readdirSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

function fileLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean);
}

function fixedClock(start = Date.parse('2026-05-13T19:00:00Z')) {
  let t = start;
  return () => new Date((t += 1000));
}

describe('memory store round trips', () => {
  it('adds, forgets, edits and loads back', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path, { now: fixedClock() });
    const a = await store.add('fact', 'User prefers terse responses.');
    const b = await store.add('pref', 'Default to :model deep for code.');
    const c = await store.add('context', 'Current project: aish.', { tags: ['aish'] });
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);

    const f = await store.forget(b.id);
    expect(f.ok).toBe(true);
    const e = await store.edit(a.id, 'User prefers very terse responses.');
    expect(e.ok && e.item.id).toBe(5);
    expect(e.ok && e.replaced.id).toBe(1);

    const loaded = loadMemory(path);
    expect(loaded.skipped).toEqual([]);
    // newest first: the edit (id 5) is the most recent item
    expect(loaded.items.map((i) => [i.id, i.kind, i.content])).toEqual([
      [5, 'fact', 'User prefers very terse responses.'],
      [3, 'context', 'Current project: aish.'],
    ]);
    expect(loaded.items[1]!.tags).toEqual(['aish']);
    // the edit wrote the new item and the tombstone of the old one together, as two whole lines
    const lines = fileLines(path).map((l) => JSON.parse(l) as unknown);
    expect(lines.slice(-2)).toEqual([
      expect.objectContaining({ id: 5, kind: 'fact' }),
      expect.objectContaining({ id: 6, kind: 'forget', target: 1 }),
    ]);
  });

  it('resolves a tombstone written before its target (hand edit)', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(
      path,
      [
        '{"id":4,"ts":"2026-05-13T20:00:00Z","kind":"forget","target":2}',
        '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"one"}',
        '{"id":2,"ts":"2026-05-13T19:01:35Z","kind":"pref","content":"two"}',
        '{"id":3,"ts":"2026-05-13T19:02:00Z","kind":"context","content":"three"}',
      ].join('\n') + '\n',
    );
    expect(loadMemory(path).items.map((i) => i.id)).toEqual([3, 1]);
  });

  it('treats tombstones for unknown or already forgotten ids as no-ops', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(
      path,
      [
        '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"one"}',
        '{"id":2,"ts":"2026-05-13T19:01:02Z","kind":"fact","content":"two"}',
        '{"id":3,"ts":"2026-05-13T19:02:00Z","kind":"forget","target":99}',
        '{"id":4,"ts":"2026-05-13T19:02:01Z","kind":"forget","target":2}',
        '{"id":5,"ts":"2026-05-13T19:02:02Z","kind":"forget","target":2}',
        '{"id":6,"ts":"2026-05-13T19:02:03Z","kind":"forget","target":4}',
      ].join('\n') + '\n',
    );
    const m = loadMemory(path);
    expect(m.items.map((i) => i.id)).toEqual([1]);
    expect(m.skipped).toEqual([]);
    // The dangling tombstone's target (99) is reserved: no item is ever born forgotten.
    expect(m.maxId).toBe(99);
  });

  it('never gives a new item an id that a hand-written tombstone already targets, and reports the tombstone', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(
      path,
      [
        '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"one"}',
        '{"id":2,"ts":"2026-05-13T19:02:00Z","kind":"forget","target":3}',
      ].join('\n') + '\n',
    );
    const store = MemoryStore.open(path);
    expect(store.danglingTombstones()).toEqual([{ line: 2, id: 2, target: 3 }]);
    const added = await store.add('fact', 'the next item');
    expect(added.id).toBe(4);
    expect(store.items().map((i) => i.content)).toEqual(['the next item', 'one']);
  });

  it('pins and unpins by record: the latest record decides, compaction folds it into the item', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    const a = await store.add('fact', 'alpha');
    const b = await store.add('fact', 'beta');
    expect(await store.setPinned(a.id, true)).toMatchObject({ ok: true, changed: true });
    expect(await store.setPinned(a.id, true)).toMatchObject({ ok: true, changed: false });
    expect(store.isPinned(store.get(a.id)!)).toBe(true);
    expect(store.isPinned(store.get(b.id)!)).toBe(false);
    expect(await store.setPinned(99, true)).toEqual({ ok: false, reason: 'unknown', id: 99 });
    // Another process sees the same.
    expect(MemoryStore.open(path).isPinned(store.get(a.id)!)).toBe(true);
    const edited = await store.edit(a.id, 'alpha two');
    expect(edited.ok && store.isPinned(edited.item)).toBe(true);
    const id = edited.ok ? edited.item.id : 0;
    await store.compact();
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.kind === 'pin' || l.kind === 'unpin')).toEqual([]);
    expect(lines.find((l) => l.id === id)).toMatchObject({ content: 'alpha two', pinned: true });
    const reopened = MemoryStore.open(path);
    expect(reopened.isPinned(reopened.get(id)!)).toBe(true);
    expect(await reopened.setPinned(id, false)).toMatchObject({ ok: true, changed: true });
    expect(MemoryStore.open(path).isPinned(reopened.get(id)!)).toBe(false);
  });

  it('addUnique writes nothing for text an active item in the same scope already holds', async () => {
    const store = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
    const first = await store.addUnique('fact', 'Deploys go through  CI');
    expect(first.added).toBe(true);
    const again = await store.addUnique('pref', ' deploys go through ci ');
    expect(again).toEqual({ item: first.item, added: false });
    const scoped = await store.addUnique('fact', 'deploys go through ci', { scope: '/src/a' });
    expect(scoped.added).toBe(true);
    expect(store.items()).toHaveLength(2);
  });

  it('forget of an id that is not active writes nothing and says why', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    await store.add('fact', 'keep me');
    await store.forget(1);
    const before = readFileSync(path);
    expect(await store.forget(1)).toEqual({ ok: false, reason: 'already-forgotten', id: 1 });
    expect(await store.forget(42)).toEqual({ ok: false, reason: 'unknown', id: 42 });
    // id 2 is the tombstone's own id, not an item
    expect(await store.forget(2)).toEqual({ ok: false, reason: 'unknown', id: 2 });
    expect(await store.edit(42, 'x')).toEqual({ ok: false, reason: 'unknown', id: 42 });
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('ignores the meta header and keeps ids >= 1 and strictly increasing', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, '{"meta":{"format":"aish-memory","version":1}}\n');
    const store = MemoryStore.open(path);
    expect(store.items()).toEqual([]);
    expect(store.skipped).toEqual([]);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await store.add('fact', `n${i}`)).id);
    await store.forget(ids[3]!);
    ids.push((await store.add('fact', 'after forget')).id);
    const recorded = fileLines(path)
      .map((l) => JSON.parse(l) as { id?: number })
      .filter((r) => r.id !== undefined)
      .map((r) => r.id!);
    expect(recorded[0]).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < recorded.length; i++) expect(recorded[i]!).toBeGreaterThan(recorded[i - 1]!);
    expect(new Set(recorded).size).toBe(recorded.length);
  });

  it('never reuses an id after compacting away the highest item', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    await store.add('fact', 'a');
    await store.add('fact', 'b');
    const top = await store.add('fact', 'c');
    await store.forget(top.id); // tombstone id 4: highest id ever used
    const r = await store.compact();
    expect(r).toMatchObject({ kept: 2, removed: 2, maxId: 4, rejected: 0 });
    const lines = fileLines(path);
    expect(lines).toHaveLength(3); // header + 2 items
    expect(JSON.parse(lines[0]!)).toMatchObject({ meta: { maxId: 4 } });

    // a fresh process (fresh store) must continue after 4, not after the highest remaining item (2)
    const again = MemoryStore.open(path);
    const next = await again.add('fact', 'd');
    expect(next.id).toBe(5);
    expect(
      loadMemory(path)
        .items.map((i) => i.id)
        .sort(),
    ).toEqual([1, 2, 5]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('compaction sets unreadable lines aside in memory.jsonl.rejected instead of dropping them', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    writeFileSync(
      path,
      '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"one"}\nthis is not json\n{"id":7,"ts":"x","kind":"fact","content":"bad ts"}\n',
    );
    const store = MemoryStore.open(path);
    expect(store.skipped.map((s) => s.line)).toEqual([2, 3]);
    const r = await store.compact();
    expect(r).toMatchObject({ kept: 1, rejected: 2, maxId: 7 });
    const rejected = readFileSync(join(dir, 'memory.jsonl.rejected'), 'utf8');
    expect(rejected).toContain('this is not json');
    expect(rejected).toContain('"bad ts"');
    expect(loadMemory(path).skipped).toEqual([]);
    // the broken line showed id 7: it stays reserved
    expect((await store.add('fact', 'next')).id).toBe(8);
  });

  it('compaction removes temp files left by a compaction that was killed', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    const store = MemoryStore.open(path);
    await store.add('fact', 'a');
    writeFileSync(join(dir, 'memory.jsonl.1937545387'), ''); // write-file-atomic's temp name
    writeFileSync(join(dir, 'memory.jsonl.notes'), 'not ours');
    await store.compact();
    expect(readdirSync(dir).sort()).toEqual(['memory.jsonl', 'memory.jsonl.notes']);
  });

  it('sees what another writer appended before assigning the next id', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const one = MemoryStore.open(path);
    const two = MemoryStore.open(path);
    await one.add('fact', 'from one');
    await two.add('fact', 'from two');
    await one.add('fact', 'one again');
    expect(one.items().map((i) => i.content)).toEqual(['one again', 'from two', 'from one']);
    expect(
      fileLines(path)
        .map((l) => (JSON.parse(l) as { id?: number }).id)
        .filter(Boolean),
    ).toEqual([1, 2, 3]);
  });

  it('notices a hand edit that rewrote the file in place', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    await store.add('fact', 'alpha');
    // rewrite in place (same inode), adding a higher id in the middle
    const text = readFileSync(path, 'utf8').replace('alpha', 'ALPHA');
    writeFileSync(path, text + '{"id":40,"ts":"2026-05-13T19:00:00Z","kind":"fact","content":"hand"}\n');
    appendFileSync(path, '');
    const item = await store.add('fact', 'beta');
    expect(item.id).toBe(41);
    expect(
      store
        .items()
        .map((i) => i.content)
        .sort(),
    ).toEqual(['ALPHA', 'beta', 'hand']);
  });

  it('clear writes one tombstone per active item in one write', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    for (const t of ['a', 'b', 'c']) await store.add('fact', t);
    const gone = await store.clear();
    expect(gone).toHaveLength(3);
    const tombs = fileLines(path)
      .map((l) => JSON.parse(l) as { kind: string; target?: number })
      .filter((r) => r.kind === 'forget');
    expect(tombs.map((t) => t.target).sort()).toEqual([1, 2, 3]);
    expect(loadMemory(path).items).toEqual([]);
  });

  it('forgetMany skips ids that are no longer active', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    for (const t of ['a', 'b', 'c']) await store.add('fact', t);
    await store.forget(2);
    const gone = await store.forgetMany([1, 2, 2, 9]);
    expect(gone.map((i) => i.id)).toEqual([1]);
    expect(store.items().map((i) => i.id)).toEqual([3]);
  });
});
