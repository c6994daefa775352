/** findConflicts: two or more active items replacing one uid, the old text beside them; decisions to keep all remembered in the inbox. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflictCount, conflictedIds, findConflicts, lazyKept } from '../../src/memory/review/conflicts';
import { uidOf } from '../../src/memory/log/identity';
import { Inbox, inboxPath } from '../../src/memory/review/inbox';
import { MemoryStore } from '../../src/memory/store';
import { appendRemoteEdit, clock, conflictedStore } from '../helpers/memory-conflict';
import { tmpDir } from '../helpers/tmp';

describe('findConflicts', () => {
  it('finds two active items replacing one forgotten item, with its text, oldest clock first', async () => {
    const { store, old, mine, theirs } = await conflictedStore();
    const list = findConflicts(store);
    expect(list).toHaveLength(1);
    const c = list[0]!;
    expect(c.replaced).toBe(old.uid);
    expect(c.old?.content).toBe('CI runs Node 18');
    expect(store.get(old.id)).toBeUndefined(); // forgotten: only the file order still has it
    expect(c.rivals.map((it) => [it.id, it.content, it.hlc! < mine.hlc!])).toEqual([
      [theirs, 'CI runs Node 22', true],
      [mine.id, 'CI runs Node 20', false],
    ]);
    expect(conflictCount(store)).toBe(1);
    expect([...conflictedIds(list)].sort()).toEqual([mine.id, theirs].sort());
  });

  it('a store without any replacing items, or with one replacement per item, has none', async () => {
    const store = MemoryStore.open(join(tmpDir(), 'memory.jsonl'), { now: clock() });
    expect(findConflicts(store)).toEqual([]);
    const a = await store.add('fact', 'one');
    await store.add('fact', 'two');
    expect(findConflicts(store)).toEqual([]);
    await store.edit(a.id, 'one, edited');
    expect(findConflicts(store)).toEqual([]);
  });

  it('is over once a rival is forgotten (resolved here or on another machine)', async () => {
    const { store, theirs } = await conflictedStore();
    await store.forget(theirs);
    expect(findConflicts(store)).toEqual([]);
  });

  it('three machines: three rivals; the old item compacted away leaves `old` unknown', async () => {
    const { path, store, old } = await conflictedStore();
    appendRemoteEdit(path, store.maxId, old, 'CI runs Node 24', 'server', Date.parse('2026-11-20T09:00:00Z'));
    store.reload();
    expect(findConflicts(store)[0]!.rivals.map((it) => it.content)).toEqual(['CI runs Node 22', 'CI runs Node 24', 'CI runs Node 20']);
    await store.compact();
    const after = findConflicts(MemoryStore.open(path));
    expect(after[0]!.old).toBeUndefined();
    expect(after[0]!.rivals).toHaveLength(3);
  });

  it('two separate conflicts are both found, in the order of their oldest rival', async () => {
    const { path, store } = await conflictedStore();
    const other = await store.add('pref', 'tabs');
    const e = await store.edit(other.id, 'spaces');
    const r = appendRemoteEdit(path, store.maxId, other, 'two spaces', 'server', Date.parse('2026-11-20T08:00:00Z'));
    store.reload();
    const list = findConflicts(store);
    expect(list.map((c) => c.old?.content)).toEqual(['CI runs Node 18', 'tabs']);
    expect(list[1]!.rivals.map((it) => it.id)).toEqual([r, e.ok ? e.item.id : 0]);
  });
});

describe('conflicts kept whole (inbox)', () => {
  it('a "both" decision hides the conflict while its rivals are among those kept; a new rival brings it back', async () => {
    const { path, store, old } = await conflictedStore();
    const inbox = Inbox.open(path, { now: clock() });
    const [c] = findConflicts(store, inbox);
    await inbox.keepAll(c!.replaced, c!.rivals.map(uidOf));
    expect(findConflicts(store, inbox)).toEqual([]);
    expect(conflictCount(store, inbox)).toBe(0);
    expect(findConflicts(store)).toHaveLength(1); // the store alone still sees it
    const line = JSON.parse(readFileSync(inboxPath(path), 'utf8').trim()) as Record<string, unknown>;
    expect(line).toEqual({ ts: expect.any(String), conflict: old.uid, action: 'both', keep: c!.rivals.map(uidOf) });
    // A fresh inbox reads it back.
    expect(conflictCount(store, Inbox.open(path))).toBe(0);
    appendRemoteEdit(path, store.maxId, old, 'CI runs Node 24', 'server');
    store.reload();
    expect(findConflicts(store, inbox)[0]!.rivals).toHaveLength(3);
  });

  it('an inbox of candidates and decisions from before still loads beside conflict decisions; a bad one is a warning', () => {
    const memPath = join(tmpDir(), 'memory.jsonl');
    const ts = '2026-01-01T00:00:00.000Z';
    writeFileSync(
      inboxPath(memPath),
      [
        { id: 1, ts, kind: 'fact', content: 'a', source: { session: 's' } },
        { id: 2, ts, kind: 'fact', content: 'b', source: { session: 's' } },
        { ts, review: 1, action: 'keep', item: 1 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const inbox = Inbox.open(memPath);
    expect(inbox.pending().map((c) => c.content)).toEqual(['b']);
    expect(inbox.warnings).toEqual([]);
    appendFileSync(
      inboxPath(memPath),
      JSON.stringify({ ts, conflict: 'U1', action: 'both', keep: ['A', 'B'] }) +
        '\n' +
        JSON.stringify({ ts, conflict: 'U2', action: 'merge', keep: ['A'] }) +
        '\n',
    );
    expect(inbox.pending().map((c) => c.content)).toEqual(['b']);
    expect(inbox.keptAll('U1', ['B', 'A'])).toBe(true);
    expect(inbox.keptAll('U1', ['A', 'C'])).toBe(false);
    expect(inbox.keptAll('U2', ['A'])).toBe(false);
    expect(inbox.warnings).toEqual([{ line: 5, reason: 'conflict decision for U2: unknown action "merge"' }]);
  });

  it('lazyKept opens the inbox only when there is a conflict to ask about', async () => {
    let opened = 0;
    const plain = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
    await plain.add('fact', 'x');
    const kept = (path: string) =>
      lazyKept(() => {
        opened++;
        return Inbox.open(path);
      });
    expect(findConflicts(plain, kept(plain.path))).toEqual([]);
    expect(opened).toBe(0);
    const { store } = await conflictedStore();
    expect(findConflicts(store, kept(store.path))).toHaveLength(1);
    expect(opened).toBe(1);
  });
});
