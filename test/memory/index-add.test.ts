import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addThroughIndex } from '../../src/memory/index/add';
import { indexPath } from '../../src/memory/index/sidecar';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { FIXTURES } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';

const notices: string[] = [];
const opts = { notice: (t: string) => notices.push(t) };
const quick = (path: string, text: string, scope?: string) => addThroughIndex(path, 'fact', text, scope ? { scope } : {}, opts);
/** An add that wrote nothing: an active item says the same. */
const refused = (r: { changed: boolean; text: string }) => !r.changed && /^already remembered as #\d+; nothing written$/.test(r.text);

async function seeded(n: number): Promise<string> {
  const path = join(tmpDir(), 'memory.jsonl');
  const store = MemoryStore.open(path);
  for (let i = 1; i <= n; i++) await store.add('fact', `item ${i}`);
  return path;
}

/** No id used twice anywhere in the file (the full reader reports a reuse as a skipped line). */
function noReusedIds(path: string, before = 0): void {
  expect(loadMemory(path).skipped.filter((s) => /duplicate id/.test(s.reason))).toHaveLength(before);
}

describe('addThroughIndex (aish memory add without a full read)', () => {
  it('adds with the next id, and the index then answers without the file', async () => {
    const path = await seeded(5);
    const a = await quick(path, 'first quick');
    expect(a?.item.id).toBe(6);
    expect(existsSync(indexPath(path))).toBe(true);
    const b = await quick(path, 'second quick');
    expect(b?.item.id).toBe(7);
    expect(b?.text).toBe('added 7 (fact)');
    expect(loadMemory(path).items.map((i) => i.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });

  it('never reuses an id after a hand edit put a high id in the middle of the file', async () => {
    const path = await seeded(6);
    expect((await quick(path, 'builds the index'))?.item.id).toBe(7);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(3, 0, JSON.stringify({ id: 500, ts: '2025-01-01T00:00:00Z', kind: 'fact', content: 'typed by hand' }));
    writeFileSync(path, lines.join('\n')); // in place: same inode, the old end moved
    const r = await quick(path, 'after the edit');
    expect(r?.item.id).toBe(501);
    noReusedIds(path);
  });

  it('takes in what others appended since (items, tombstones with high targets, pins)', async () => {
    const path = await seeded(3);
    await quick(path, 'index me');
    const store = MemoryStore.open(path);
    await store.forget(2);
    await store.setPinned(1, true);
    await store.add('fact', 'from the REPL');
    expect(refused(await quick(path, 'from the REPL'))).toBe(true); // the tail's item
    const r = await quick(path, 'something new');
    expect(r?.item.id).toBe(store.reload().maxId);
    noReusedIds(path);
  });

  it('still refuses an exact duplicate (white space and case aside) in the same scope', async () => {
    const path = await seeded(2);
    expect(refused(await quick(path, 'Uses  PNPM'))).toBe(false);
    expect(refused(await quick(path, 'uses pnpm'))).toBe(true);
    expect(refused(await quick(path, 'item 1'))).toBe(true); // added before the index existed
    expect(refused(await quick(path, 'item 2', '/home/me/app'))).toBe(false); // same text, another scope
    expect((await quick(path, 'uses pnpm', '/home/me/app'))?.item.scope).toBe('/home/me/app');
    const size = readFileSync(path).length;
    expect(refused(await quick(path, 'USES pnpm', '/home/me/app'))).toBe(true);
    expect(readFileSync(path).length).toBe(size);
  });

  it('rebuilds after compaction (the header keeps the highest id) and after a damaged index', async () => {
    const path = await seeded(4);
    await quick(path, 'index me');
    const store = MemoryStore.open(path);
    await store.clear();
    await store.compact();
    expect(store.reload().items).toEqual([]);
    expect((await quick(path, 'after compaction'))?.item.id).toBe(11); // 1-5 items, 6-10 tombstones
    writeFileSync(indexPath(path), 'garbage');
    expect((await quick(path, 'after damage'))?.item.id).toBe(12);
    noReusedIds(path);
  });

  it('leaves odd files to the full reader: ids from broken lines stay reserved', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    copyFileSync(join(FIXTURES, 'hand-edited.jsonl'), path);
    const full = MemoryStore.open(path);
    const reused = full.skipped.filter((s) => /duplicate id/.test(s.reason)).length;
    const r = await quick(path, 'on a hand-edited file');
    expect(r?.item.id).toBe(full.maxId + 1);
    expect(r?.unreadable).toBeGreaterThan(0);
    // A torn line appended by hand: the next add falls back to a full read of it, then goes on.
    writeFileSync(path, readFileSync(path, 'utf8') + '{"id": 9000, "ts": "2025-01-01T00:00:00Z", "kind": "fa');
    expect((await quick(path, 'after a torn line'))?.item.id).toBe(9001);
    noReusedIds(path, reused);
  });

  it('creates a missing file, and a forgotten item no longer counts as said', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    expect((await quick(path, 'x')).item.id).toBe(1);
    await MemoryStore.open(path).forget(1);
    expect((await quick(path, 'x')).item.id).toBe(3);
    expect(loadMemory(path).items.map((i) => i.content)).toEqual(['x']);
  });
});
