/**
 * `aish memory add` without reading the whole file: under the lock, the add index (add-index.ts)
 * gives the highest id and rules out a duplicate; the record is appended and fsynced exactly as
 * the store does it. When the index cannot rule a duplicate out (or cannot be used at all), the
 * caller falls back to MemoryStore.addUnique, which reads everything.
 */
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../util/fs-safe';
import { realDir } from '../util/paths';
import { AddIndex, dropAddIndex } from './add-index';
import { appendRecords } from './append';
import { DEFAULT_LOCK_TIMING, sweepLockLeftovers, withLock, type LockTiming } from './lock';
import { added, redacted, type OpResult } from './ops';
import { fileHeader, newItem, sameItemKey, type AddOptions } from './records';
import type { MemoryItem, MemoryKind } from './types';

export interface QuickAddOptions {
  lock?: Partial<LockTiming>;
  notice: (text: string) => void;
  now?: () => Date;
}

export type QuickAdded = OpResult & { item: MemoryItem; unreadable: number };

/** Add `text` as addItem would; null when only a full read can tell (then nothing was written). */
export async function quickAddItem(
  path: string,
  kind: MemoryKind,
  text: string,
  opts: AddOptions,
  o: QuickAddOptions,
): Promise<QuickAdded | null> {
  const file = realDir(path);
  const safe = redacted(text);
  const now = o.now ?? (() => new Date());
  sweepLockLeftovers(file);
  ensurePrivateDir(dirname(file));
  return withLock(
    file,
    (guard): QuickAdded | null => {
      let index: AddIndex;
      try {
        index = AddIndex.open(file);
      } catch {
        return null; // no index to be had (read-only directory, …): the full read still works
      }
      try {
        if (!index.sync(file) || index.has(sameItemKey(opts.scope, safe.text))) {
          index.close();
          return null;
        }
      } catch {
        closeQuietly(index, file);
        return null;
      }
      const unreadable = index.unreadable;
      const item = newItem(index.maxId + 1, now(), kind, safe.text, opts);
      try {
        guard.assertHeld();
        appendRecords(file, JSON.stringify(item) + '\n', fileHeader(now()), o.notice);
      } catch (err) {
        closeQuietly(index, file);
        throw err;
      }
      // Our own line read back as the tail, so the index covers it; on trouble it is dropped.
      try {
        if (!index.sync(file)) dropAddIndex(file);
        index.close();
      } catch {
        closeQuietly(index, file);
      }
      return { ...added(item, safe.note), unreadable };
    },
    { ...DEFAULT_LOCK_TIMING, ...o.lock },
    o.notice,
  );
}

function closeQuietly(index: AddIndex, file: string): void {
  try {
    index.close();
  } catch {
    // the index is a cache: dropping it is always safe
  }
  dropAddIndex(file);
}
