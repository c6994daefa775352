/**
 * `aish memory add` without reading the whole file: under the memory lock, the index (brought in
 * step with memory.jsonl: its tail read, or rebuilt when the file changed otherwise) gives the
 * highest id and the duplicate check — exact, since a key found in the index is checked against
 * the item's own line. The record is written by the log's one write (log/write.ts), as the store's are.
 */
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../../util/fs-safe';
import { realDir } from '../../util/paths';
import { sweepLockLeftovers } from '../log/lock';
import { added, redacted, type OpResult } from '../ops';
import { newItem, type AddOptions } from '../log/records';
import { writeRecords, type WriteOptions } from '../log/write';
import type { MemoryStoreOptions } from '../store';
import type { MemoryItem, MemoryKind } from '../types';
import { duplicateOf } from './duplicate';
import { MemoryIndex } from './memory-index';
import { caughtUp } from './position';

export type IndexAddOptions = MemoryStoreOptions & Pick<WriteOptions, 'notice'>;

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
    return await writeRecords(
      file,
      () => caughtUp(ix),
      (next) => {
        const { unreadable } = ix.counts();
        const same = duplicateOf(ix, opts.scope, safe.text);
        if (same)
          return {
            records: [],
            result: { ok: true, changed: false, text: `already remembered as #${same.id}; nothing written`, item: same, unreadable },
          };
        const item = newItem(next, now(), kind, safe.text, opts);
        return { records: [item], result: { ...added(item, safe.note), unreadable } };
      },
      { ...(o.lock && { lock: o.lock }), notice: o.notice, now },
    );
  } finally {
    ix.close();
  }
}
