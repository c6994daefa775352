/**
 * The one write to memory.jsonl (compaction aside, compact.ts): a planned batch of records,
 * appended under the lock. The store's verbs, the command line's fast add (index/add.ts) and sync's
 * apply (sync/apply.ts) all come through here; each brings its own view of the file (the store's
 * state, or the index) and its own plan. Under the lock the view first catches up with what others
 * appended, the process's clock moves past the newest stamp it holds, and the plan gets the next
 * free id; its records go onto the end of the file as whole lines on an O_APPEND descriptor,
 * fdatasync'd (append.ts), or for `atomic` in one rewrite (rewrite.ts).
 */
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../../util/fs-safe';
import { appendRecords } from './append';
import { loadIdentity, observeStamp } from './identity';
import { DEFAULT_LOCK_TIMING, withLock, type LockTiming } from './lock';
import { assertIdsFit, fileHeader } from './records';
import { appendAtomically } from './rewrite';

/** What a view of the file knows once caught up: the highest id ever used and the newest clock stamp. */
export interface LogPosition {
  maxId: number;
  maxHlc: string | undefined;
}

/** The records to write (none: nothing is written) and what the caller gets back. */
export interface Planned<T> {
  records: readonly object[];
  result: T;
}

export interface WriteOptions {
  lock?: Partial<LockTiming>;
  notice: (text: string) => void;
  now: () => Date;
  /** One rewrite (temp file + rename) instead of an append, so a crash keeps all or none (an import). */
  atomic?: boolean;
  /** Called under the lock once the records are on disk (the store reads them back). */
  written?: () => void;
}

/**
 * Write what `plan` makes of the file as it is now: `catchUp` (under the lock) reads what others
 * appended and says where the file stands; `plan` gets the next free id.
 */
export async function writeRecords<T>(
  file: string,
  catchUp: () => LogPosition,
  plan: (nextId: number) => Planned<T>,
  o: WriteOptions,
): Promise<T> {
  ensurePrivateDir(dirname(file));
  // Records are stamped with a uid: the ULID package is loaded before the lock is taken.
  await loadIdentity();
  return withLock(
    file,
    (guard) => {
      const at = catchUp();
      observeStamp(at.maxHlc);
      const { records, result } = plan(at.maxId + 1);
      if (records.length === 0) return result;
      assertIdsFit(file, records);
      guard.assertHeld();
      const lines = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
      if (o.atomic) appendAtomically(file, lines, fileHeader(o.now()), o.notice);
      else appendRecords(file, lines, fileHeader(o.now()), o.notice);
      o.written?.();
      return result;
    },
    { ...DEFAULT_LOCK_TIMING, ...o.lock },
    o.notice,
  );
}
