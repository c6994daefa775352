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
  /** Permission bits of the tree at snapshot time (none in checkpoints made before aish kept them). */
  modes?: ModeRecord;
  /** Directories with nothing captured in them (empty, or holding only what was left out): recreated on restore. */
  dirs?: string[];
  /** What this snapshot did not capture, so a restore cannot bring back. */
  left?: LeftOut;
  /** Set by `snapshot()` when nothing had changed and the newest checkpoint was reused. */
  reused?: boolean;
}

/**
 * Permission bits (mode & 0o7777) as they were: the commonest of plain files (`f`), executables
 * (`x`) and directories (`d`), and every path that differs (`p`; a directory ends in `/`). `p` is
 * null when there were too many exceptions to keep: then a restore writes owner-only modes.
 */
export interface ModeRecord {
  f: number;
  x: number;
  d: number;
  p: Record<string, number> | null;
}

/** How many paths one reason left out, and the first few of them. */
export interface LeftGroup {
  n: number;
  paths: string[];
}

/** What a snapshot left out, by reason. */
export interface LeftOut {
  /** Matched by an ignore rule (a directory counts once, as `dir/`). */
  ignored?: LeftGroup;
  /** Over MAX_FILE_BYTES. */
  large?: LeftGroup;
  /** Another git repository inside the tree. */
  nested?: LeftGroup;
  /** Could not be read. */
  unreadable?: LeftGroup;
  /** Empty directories past MAX_DIRS. */
  dirs?: LeftGroup;
}

/** Skip the snapshot when the tree and its state already are these (a restore to where it is). */
export interface Unless {
  tree: string;
  key: string;
}

export interface Snap {
  /** Null when the tree already was `unlessTree` (nothing recorded). */
  checkpoint: Checkpoint | null;
  /** Paths over the size cap, left out of this snapshot. */
  large: string[];
  /** What is ignored (a directory once, as `dir/`). */
  ignored: string[];
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
  /** Files and directories whose permission bits were set back to the checkpoint's. */
  modes: number;
  /** Directories recreated (empty at checkpoint time, gone since). */
  dirs: number;
  /** The checkpoint of the state just before the restore (a restore can be undone). */
  before: Checkpoint | null;
}

/** Short ids: the shadow commit's first hex digits. */
export const SHORT_ID = 8;

/** Files larger than this are left out of a snapshot (build outputs, media, archives). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** More new files than this in one snapshot is refused: a missing .gitignore, or not a project. */
export const MAX_NEW_FILES = 50_000;

/** Paths named per reason in a checkpoint's record of what it left out. */
export const LEFT_EXAMPLES = 3;

/** Mode exceptions kept per checkpoint; past this, restores write owner-only modes. */
export const MAX_MODE_EXCEPTIONS = 2_000;

/** Directories with nothing captured recorded per checkpoint (to recreate). */
export const MAX_DIRS = 1_000;
