/**
 * A session's checkpoints behind a thin front: the shadow-repository code loads with the first
 * snapshot, list or restore, not at start-up (most sessions take none before their first prompt).
 */
import { realPath } from '../util/paths';
import type { Checkpoints } from './checkpoints';

export type CheckpointStore = Pick<Checkpoints, 'dir' | 'snapshot' | 'list' | 'restore' | 'changedSince' | 'before' | 'watch'>;

/** The checkpoints of `dir()` (it follows `:cd`) under `<data dir>/checkpoints`. */
export function lazyCheckpoints(dataDir: string, dir: () => string): CheckpointStore {
  let loaded: Promise<Checkpoints> | null = null;
  const load = (): Promise<Checkpoints> =>
    (loaded ??= import('./checkpoints').then(({ Checkpoints, checkpointsRoot }) => new Checkpoints(checkpointsRoot(dataDir), dir)));
  return {
    // As Checkpoints names it (its real path), without loading it.
    get dir() {
      return realPath(dir());
    },
    snapshot: async (label, step) => (await load()).snapshot(label, step),
    list: async () => (await load()).list(),
    restore: async (id, hint) => (await load()).restore(id, hint),
    changedSince: async (c) => (await load()).changedSince(c),
    before: async (since) => (await load()).before(since),
    watch: async (label, step) => (await load()).watch(label, step),
  };
}
