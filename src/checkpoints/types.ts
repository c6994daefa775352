/** What checkpoints are made of, and their limits. */

export interface Checkpoint {
  /** Short id: the shadow commit's first 8 hex digits. */
  id: string;
  /** The whole commit hash. */
  commit: string;
  /** ISO time. */
  ts: string;
  /** What was about to run: the command line or the tool call. */
  label: string;
  /** The Norris step or chat turn, when known (e.g. "step 3/8"). */
  step?: string;
  /** The working tree it snapshots. */
  dir: string;
  /** Files left out of this snapshot: over the size cap, or unreadable. */
  skipped?: number;
  /** Set by `snapshot()` when nothing had changed and the newest checkpoint was reused. */
  reused?: boolean;
}

export type CheckpointRecord = Omit<Checkpoint, 'id' | 'commit' | 'reused'>;

export interface RestoreResult {
  /** The checkpoint the tree was put back to. */
  checkpoint: Checkpoint;
  /** Files written back or removed. */
  changed: number;
  /** Files changed or deleted since, written back. */
  written: number;
  /** Files created since (not ignored), removed. */
  removed: number;
  /** Files over the size cap now in the tree: never captured, so never overwritten or removed. */
  keptLarge: number;
  /** The checkpoint of the state just before the restore (a restore can be undone). */
  before: Checkpoint | null;
}

/** Short ids: the shadow commit's first hex digits. */
export const SHORT_ID = 8;

/** Files larger than this are left out of a snapshot (build outputs, media, archives). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** More new files than this in one snapshot is refused: a missing .gitignore, or not a project. */
export const MAX_NEW_FILES = 50_000;
