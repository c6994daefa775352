/**
 * What review does with held arrivals (held.ts): list them by group, and accept (apply exactly as
 * the sync would have, through applyIncoming without the guards) or drop one group. Under the sync
 * lock, so no sync changes the ledger or the held file meanwhile.
 */
import { existsSync } from 'node:fs';
import { realDir } from '../../util/paths';
import { AishError } from '../../util/errors';
import { LockBusyError, withLock } from '../log/lock';
import { applyIncoming } from './apply';
import { groupHeld, readHeld, rewriteHeld, type HeldGroup } from './held';
import type { WriterBatch } from './incoming';
import { Ledger } from './ledger';
import { syncPaths } from './paths';
import { forgetPutBack } from './put-back';

export type { HeldGroup };

/** Held groups, oldest first; none when sync never ran here. */
export function heldGroups(memoryPath: string): HeldGroup[] {
  const held = syncPaths(realDir(memoryPath)).held;
  return existsSync(held) ? groupHeld(readHeld(held)) : [];
}

/** Accept (apply) or drop the group `key`; false when it is no longer held (decided elsewhere). */
export async function settleHeld(
  memoryPath: string,
  key: string,
  accept: boolean,
  notice: (t: string) => void = () => {},
): Promise<boolean> {
  const file = realDir(memoryPath);
  const paths = syncPaths(file);
  try {
    return await withLock(
      paths.lock,
      async () => {
        const all = readHeld(paths.held);
        const group = groupHeld(all).find((g) => g.key === key);
        if (!group) return false;
        if (accept) {
          const batches = new Map<string, WriterBatch>();
          const now = () => new Date();
          // Forgets that applied and were put back: their restored items are forgotten as the user's own change.
          await forgetPutBack(
            file,
            group.records.filter((h) => h.restored),
            { notice, now },
          );
          for (const h of group.records.filter((r) => !r.restored)) {
            const b = batches.get(h.writer) ?? { writer: h.writer, key: h.writer, name: h.name, records: [], end: 0, bad: 0 };
            b.records.push(h.record);
            batches.set(h.writer, b);
          }
          const ledger = Ledger.load(paths.ledger);
          await applyIncoming(file, [...batches.values()], ledger, {
            known: new Set(),
            confirmForgets: async () => true,
            dryRun: false,
            notice,
            now,
          });
        }
        const gone = new Set(group.records.map((h) => h.record.uid));
        rewriteHeld(
          paths.held,
          all.filter((h) => !gone.has(h.record.uid)),
        );
        return true;
      },
      { waitMs: 2000, staleMs: 10_000 },
      notice,
    );
  } catch (err) {
    if (err instanceof LockBusyError) throw new AishError('a memory sync of this store is running — review again when it has finished');
    throw err;
  }
}
