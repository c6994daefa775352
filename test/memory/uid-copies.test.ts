/**
 * Records that repeat an earlier record's uid (a line copied by hand): the later one keeps its text
 * and gets a uid of its own, the same however the file is read; one warning names the line.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryState } from '../../src/memory/log/state';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const X = '01JV0000000000000000000000';
const item = (id: number, content: string, extra: object = {}) =>
  JSON.stringify({ id, uid: X, hlc: '1747000000000-0000', ts: '2026-05-13T19:00:00Z', kind: 'fact', content, ...extra });

function read(text: string): MemoryState {
  const s = new MemoryState();
  s.ingest(text, 1);
  return s;
}

describe('a uid repeated by a later line', () => {
  it('gives the later item a uid of its own, made from the file alone, and reports it once (kept)', () => {
    const text = [item(1, 'deploys on tuesdays'), item(2, 'deploys on tuesdays'), item(3, 'deploys on thursdays')].join('\n') + '\n';
    const a = read(text);
    const b = read(text);
    const uids = a.itemsInFileOrder().map((it) => it.uid);
    expect(uids[0]).toBe(X);
    expect(new Set(uids).size).toBe(3);
    expect(b.itemsInFileOrder().map((it) => it.uid)).toEqual(uids);
    for (const u of uids) expect(u).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(
      a
        .active()
        .map((it) => it.content)
        .sort(),
    ).toEqual(['deploys on thursdays', 'deploys on tuesdays', 'deploys on tuesdays']);
    expect(a.skipped).toEqual([
      { line: 2, reason: `same uid as line 1 (a copied line?) — kept as an item of its own, uid ${uids[1]}`, kept: true },
      { line: 3, reason: `same uid as line 1 (a copied line?) — kept as an item of its own, uid ${uids[2]}`, kept: true },
    ]);
    // Field order kept: the uid stays right after the id.
    expect(Object.keys(a.itemsInFileOrder()[1]!).slice(0, 2)).toEqual(['id', 'uid']);
  });

  it('old records without a uid: an exact copy under a new id is told apart; two like tombstones are one', () => {
    const old = (id: number, content: string) => JSON.stringify({ id, ts: '2025-01-01T00:00:00Z', kind: 'fact', content });
    const tomb = (id: number) => JSON.stringify({ id, ts: '2025-01-02T00:00:00Z', kind: 'forget', target: 9 });
    const s = read([old(1, 'a'), old(2, 'a'), old(3, 'b'), tomb(4), tomb(5)].join('\n') + '\n');
    const [first, copy, other] = s.itemsInFileOrder();
    expect(first!.uid).toBeUndefined();
    expect(copy!.uid).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(other!.uid).toBeUndefined();
    expect(s.skipped.map((l) => l.line)).toEqual([2]);
  });

  it('a forgotten item pasted back below its tombstone keeps its uid (sync forgets it again)', () => {
    const forget = JSON.stringify({
      id: 2,
      uid: '01JV0000000000000000000001',
      ts: '2026-05-14T00:00:00Z',
      kind: 'forget',
      target: 1,
      target_uid: X,
    });
    const s = read([item(1, 'use yarn'), forget, item(3, 'use yarn')].join('\n') + '\n');
    expect(s.active().map((it) => [it.id, it.uid])).toEqual([[3, X]]);
    expect(s.skipped).toEqual([]);
  });

  it('a store that reads on from where it stopped agrees with a full read; forget and compact keep the two apart', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    writeFileSync(path, item(1, 'staging is pg 16') + '\n', { mode: 0o600 });
    const store = MemoryStore.open(path);
    expect(store.items()).toHaveLength(1);
    appendFileSync(path, item(2, 'staging is pg 17') + '\n');
    store.reload();
    const fresh = loadMemory(path).items;
    expect(store.items().map((it) => it.uid)).toEqual(fresh.map((it) => it.uid));
    const copyUid = fresh.find((it) => it.id === 2)!.uid;
    expect(copyUid).not.toBe(X);

    await store.forget(1); // the original: its tombstone names X, never the copy
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ kind: 'forget', target: 1, target_uid: X });
    await store.compact();
    // Compaction writes the copy's own uid, so it stays the same now that the original is gone.
    const after = loadMemory(path);
    expect(after.items.map((it) => [it.id, it.uid])).toEqual([[2, copyUid]]);
    expect(after.skipped).toEqual([]);
  });
});
