/**
 * Step 1 of a sync on its own: what memory.jsonl gained goes into the outbox, and the state notes
 * how far it was read. A sync runs it first; compaction runs it (under both locks) before it drops
 * forget and pin records, so no forget made since the last sync is lost to the other machines.
 */
import { existsSync } from 'node:fs';
import { withLock } from '../log/lock';
import { Ledger } from './ledger';
import { stage, type Staged } from './outgoing';
import { readOutbox, writeOutbox } from './outbox';
import { syncPaths } from './paths';
import { readState, saveState, type SyncState } from './state';

/** Stage and save; `fresh` (a state about another remote or none): start from nothing. */
export function stageAndSave(file: string, state: SyncState, fresh: boolean, ledger: Ledger): { staged: Staged; state: SyncState } {
  const paths = syncPaths(file);
  const staged = stage(file, state.send, ledger, fresh ? [] : readOutbox(paths.outbox), state.sendHlc);
  writeOutbox(paths.outbox, staged.outbox);
  ledger.flush();
  const next = { ...state, send: staged.cursor, sendHlc: staged.hlc };
  saveState(paths.state, next);
  return { staged, state: next };
}

/**
 * Run `rewrite` (which holds memory.jsonl's lock and may drop records) with the sync lock held and
 * a `stage` to call under the memory lock first; with no sync set up, `stage` does nothing.
 */
export async function keepingSyncRecords<T>(file: string, rewrite: (stage: () => void) => Promise<T>): Promise<T> {
  const paths = syncPaths(file);
  if (!existsSync(paths.state)) return rewrite(() => {});
  return withLock(paths.lock, () =>
    rewrite(() => {
      const saved = readState(paths.state);
      if (saved) stageAndSave(file, saved, false, Ledger.load(paths.ledger));
    }),
  );
}
