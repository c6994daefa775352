/**
 * A store in conflict, made as sync makes one: this machine edits an item (new item replacing its
 * uid + tombstone), and another machine's edit of the same item arrives as records appended to
 * memory.jsonl, with their own uids and a `via` label naming the writer.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { uidOf } from '../../src/memory/log/identity';
import { MemoryStore } from '../../src/memory/store';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from './tmp';

const T0 = Date.parse('2026-11-20T10:00:00Z');

export function clock(start = T0): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

let remote = 0;

/**
 * Append another machine's edit of `old`: the new item (replaces old's uid) and old's tombstone.
 * Returns the new item's id. Stamped before T0 by default, so it is older than any edit made here
 * (this process's clock never goes below what it has seen, whatever `now` a store is given).
 */
export function appendRemoteEdit(path: string, maxId: number, old: MemoryItem, content: string, via: string, at = T0 - 86_400_000): number {
  const ts = new Date(at).toISOString();
  const n = ++remote;
  const uid = (k: string) => `01KREMOTE${String(n).padStart(4, '0')}${k}`.padEnd(26, '0');
  const item = { id: maxId + 1, uid: uid('I'), hlc: `${at}-0000`, ts, kind: old.kind, content, replaces: uidOf(old), via };
  const tomb = { id: maxId + 2, uid: uid('T'), hlc: `${at}-0001`, ts, kind: 'forget', target: old.id, target_uid: uidOf(old) };
  appendFileSync(path, JSON.stringify(item) + '\n' + JSON.stringify(tomb) + '\n');
  return item.id;
}

/** "CI runs Node 18" (#1), edited here to "… Node 20" (#2) and, earlier by the clock, on the workstation to "… Node 22" (#4). */
export async function conflictedStore(path = join(tmpDir(), 'memory.jsonl')) {
  const store = MemoryStore.open(path, { now: clock() });
  const old = await store.add('fact', 'CI runs Node 18');
  const mine = await store.edit(old.id, 'CI runs Node 20');
  if (!mine.ok) throw new Error('edit failed');
  const theirs = appendRemoteEdit(path, store.maxId, old, 'CI runs Node 22', 'workstation');
  store.reload();
  return { path, store, old, mine: mine.item, theirs };
}
