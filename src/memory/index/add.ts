/**
 * `aish memory add` without reading the whole file: under the memory lock, the index (brought in
 * step with memory.jsonl: its tail read, or rebuilt when the file changed otherwise) gives the
 * highest id and the duplicate check — exact, since a key found in the index is checked against
 * the item's own line. The record is appended and fsynced exactly as the store does it.
 */
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../../util/fs-safe';
import { realDir } from '../../util/paths';
import { appendRecords } from '../log/append';
import { laterStamp } from '../log/hlc';
import { loadIdentity, observeStamp } from '../log/identity';
import { DEFAULT_LOCK_TIMING, sweepLockLeftovers, withLock, type LockTiming } from '../log/lock';
import { added, redacted, type OpResult } from '../ops';
import { fileHeader, newItem, type AddOptions } from '../log/records';
import type { MemoryItem, MemoryKind } from '../types';
import { duplicateOf } from './duplicate';
import { MemoryIndex } from './memory-index';

export interface IndexAddOptions {
  lock?: Partial<LockTiming>;
  notice: (text: string) => void;
  now?: () => Date;
}

export type IndexAdded = OpResult & { item: MemoryItem; unreadable: number };

/** Add `text` as ops.addItem would (secrets redacted; nothing written when an active item in the scope says the same). */
export async function addThroughIndex(
  path: string,
  kind: MemoryKind,
  text: string,
  opts: AddOptions,
  o: IndexAddOptions,
): Promise<IndexAdded> {
  const file = realDir(path);
  const safe = redacted(text);
  const now = o.now ?? (() => new Date());
  sweepLockLeftovers(file);
  ensurePrivateDir(dirname(file));
  await loadIdentity();
  // A build (a full read) is done before the lock, so other writers do not wait for it; under the
  // lock only what was appended meanwhile is read.
  const ix = new MemoryIndex(file);
  try {
    ix.refresh();
  } catch (err) {
    ix.close();
    throw err;
  }
  try {
    return await withLock(
      file,
      (guard): IndexAdded => {
        ix.refresh();
        const { unreadable, maxId } = ix.counts();
        const same = duplicateOf(ix, opts.scope, safe.text);
        if (same) return { ok: true, changed: false, text: `already remembered as #${same.id}; nothing written`, item: same, unreadable };
        observeStamp(laterStamp(ix.header?.maxHlc, ix.tail?.state.maxHlc));
        const item = newItem(maxId + 1, now(), kind, safe.text, opts);
        guard.assertHeld();
        appendRecords(file, JSON.stringify(item) + '\n', fileHeader(now()), o.notice);
        return { ...added(item, safe.note), unreadable };
      },
      { ...DEFAULT_LOCK_TIMING, ...o.lock },
      o.notice,
    );
  } finally {
    ix.close();
  }
}
