/** Where a store's sync keeps its own files: `sync/` beside memory.jsonl (0700, like the data directory). */
import { dirname, join } from 'node:path';

export interface SyncPaths {
  dir: string;
  /** The clone of the sync remote (a cache: made again whenever it is missing or broken). */
  repo: string;
  /** Writer id, remote and read positions (state.ts). */
  state: string;
  /** Every record uid the repository holds, with its local id (ledger.ts). */
  ledger: string;
  /** Records taken from memory.jsonl and not yet pushed. */
  outbox: string;
  /** Received records waiting in review (held.ts). */
  held: string;
  /** Forgets of items written here applied per writer in the last 7 days (guard.ts). */
  guard: string;
  /** The file whose `.lock` keeps two syncs of one store apart. */
  lock: string;
}

export function syncPaths(memoryPath: string): SyncPaths {
  const dir = join(dirname(memoryPath), 'sync');
  return {
    dir,
    repo: join(dir, 'repo'),
    state: join(dir, 'state.json'),
    ledger: join(dir, 'ledger'),
    outbox: join(dir, 'outbox.jsonl'),
    held: join(dir, 'held.jsonl'),
    guard: join(dir, 'guard.json'),
    lock: join(dir, 'sync'),
  };
}

/**
 * A writer's file in the repository: `writers/<id>.jsonl`, then `writers/<id>.<part>.jsonl` for each
 * part after it. A writer starts a new part once its current one passes PART_BYTES, so a commit
 * never hashes (nor a push packs) more than that, however large the store grows.
 */
export function writerFile(repo: string, writer: string, part = 1): string {
  return join(repo, 'writers', `${partKey(writer, part)}.jsonl`);
}

/** The name of a part without `.jsonl`: what read positions are kept under. */
export function partKey(writer: string, part: number): string {
  return part === 1 ? writer : `${writer}.${part}`;
}

export const PART_BYTES = 1024 * 1024;
