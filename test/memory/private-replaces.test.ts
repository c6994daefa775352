/** `private: true` (never synced) and `replaces` (the uid an edit replaced): written, read, carried over, shown. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatItemLines } from '../../src/memory/format';
import { derivedUid, uidOf } from '../../src/memory/log/identity';
import { addItem } from '../../src/memory/ops';
import { replArgs } from '../../src/commands/memory-door';
import { MEMORY_VERBS } from '../../src/commands/memory-verbs';
import { MemoryStore } from '../../src/memory/store';
import { exportJsonl, exportMarkdown, parseImport } from '../../src/memory/porting/transfer';
import { tmpDir } from '../helpers/tmp';

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function fresh(): { path: string; store: MemoryStore } {
  const path = join(tmpDir(), 'memory.jsonl');
  return { path, store: MemoryStore.open(path) };
}

describe('private items', () => {
  it('add writes private: true, says so, and a fresh load reads it back', async () => {
    const { path, store } = fresh();
    const r = await addItem(store, 'fact', 'the staging password rotates on Mondays', { private: true });
    expect(r.text).toBe('added 1 (fact), private — never synced');
    const plain = await addItem(store, 'fact', 'uses pnpm', {});
    expect(plain.text).toBe('added 2 (fact)');
    expect(records(path).map((x) => x.private)).toEqual([undefined, true, undefined]);
    const loaded = MemoryStore.open(path).items();
    expect(loaded.map((i) => [i.content, i.private])).toEqual([
      ['uses pnpm', undefined],
      ['the staging password rotates on Mondays', true],
    ]);
  });

  it('edit and supersede carry it over; compaction keeps it', async () => {
    const { path, store } = fresh();
    const a = await store.add('fact', 'deploy key lives in the vault', { private: true });
    const e = await store.edit(a.id, 'deploy key lives in the team vault');
    expect(e.ok && e.item.private).toBe(true);
    const s = await store.supersede(e.ok ? e.item.id : 0, 'fact', 'deploy key lives in 1password');
    expect(s.item.private).toBe(true);
    await store.compact();
    const after = MemoryStore.open(path).items();
    expect(after.map((i) => [i.content, i.private])).toEqual([['deploy key lives in 1password', true]]);
    expect(
      records(path)
        .filter((x) => x.content)
        .map((x) => x.private),
    ).toEqual([true]);
  });

  it.each([
    ['jsonl', exportJsonl],
    ['md', exportMarkdown],
  ] as const)('%s export and import keep it', async (_f, exporter) => {
    const { store } = fresh();
    await store.add('fact', 'private one', { private: true });
    await store.add('fact', 'public one');
    const parsed = parseImport(exporter(store.items(), () => false, new Date('2026-11-26T00:00:00Z')));
    expect(parsed.problems).toEqual([]);
    const to = fresh().store;
    await to.importItems(parsed.items);
    expect(to.items().map((i) => [i.content, i.private === true])).toEqual(
      expect.arrayContaining([
        ['private one', true],
        ['public one', false],
      ]),
    );
  });

  it('a private field that is not true or false makes the line unreadable (reported), like pinned', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const ts = '2026-01-01T00:00:00.000Z';
    writeFileSync(
      path,
      [
        { id: 1, ts, kind: 'fact', content: 'ok', private: false },
        { id: 2, ts, kind: 'fact', content: 'bad', private: 'yes' },
        { id: 3, ts, kind: 'fact', content: 'bad too', replaces: 7 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const store = MemoryStore.open(path);
    expect(store.items().map((i) => i.id)).toEqual([1]);
    expect(store.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, 'private must be true or false (got "yes")'],
      [3, 'replaces must be a string (a uid)'],
    ]);
  });

  it('listings mark it (private)', async () => {
    const { store } = fresh();
    await store.add('fact', 'secret-ish plan', { private: true });
    const lines = formatItemLines(store.items(), { now: new Date(), injected: new Set() });
    expect(lines[1]).toMatch(/secret-ish plan {2}\(private\)$/);
  });

  it('--project and --private are taken in any order before the rest, and the text keeps its own', () => {
    const add = MEMORY_VERBS.find((v) => v.name === 'add')!;
    const flags = (rest: string) => {
      const a = replArgs(add, rest);
      return { project: a.flags.has('--project'), private: a.flags.has('--private'), words: a.words, text: a.text };
    };
    expect(flags('--private --project fact x')).toEqual({ project: true, private: true, words: ['fact', 'x'], text: 'x' });
    expect(flags('--project fact  a  --private')).toEqual({
      project: true,
      private: false,
      words: ['fact', 'a', '--private'],
      text: 'a  --private',
    });
    expect(flags('fact')).toEqual({ project: false, private: false, words: ['fact'], text: '' });
  });
});

describe('replaces', () => {
  it("edit and supersede write the old item's uid; a plain add does not", async () => {
    const { path, store } = fresh();
    const a = await store.add('fact', 'CI runs Node 18');
    const e = await store.edit(a.id, 'CI runs Node 20');
    expect(e.ok && e.item.replaces).toBe(a.uid);
    const s = await store.supersede(e.ok ? e.item.id : 0, 'fact', 'CI runs Node 22');
    expect(s.item.replaces).toBe(e.ok ? e.item.uid : '');
    const items = records(path).filter((x) => x.content);
    expect(items.map((x) => x.replaces)).toEqual([undefined, a.uid, e.ok ? e.item.uid : '']);
    expect(MemoryStore.open(path).items()[0]!.replaces).toBe(s.item.replaces);
  });

  it('an old record without a uid is named by its derived uid; old files load unchanged', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const old = { id: 1, ts: '2025-01-01T00:00:00.000Z', kind: 'fact' as const, content: 'written before uids' };
    const text = JSON.stringify(old) + '\n';
    writeFileSync(path, text);
    const store = MemoryStore.open(path);
    expect(store.items()).toEqual([old]);
    expect(readFileSync(path, 'utf8')).toBe(text);
    const e = await store.edit(1, 'edited after uids');
    expect(e.ok && e.item.replaces).toBe(derivedUid(old));
    expect(uidOf(old)).toBe(derivedUid(old));
  });
});
