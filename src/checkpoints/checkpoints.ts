/**
 * Checkpoints: snapshots of a working tree taken before a step that may write, kept in a shadow git
 * repository under the data dir (never the user's own .git), so `:restore` can undo the step.
 * (Placeholder: nothing is recorded yet.)
 */

export interface Checkpoint {
  /** Short id, e.g. the shadow commit's first 8 hex digits. */
  id: string;
  /** ISO time. */
  ts: string;
  /** What was about to run: the command line or the tool call. */
  label: string;
  /** The Norris step or chat turn, when known (e.g. "step 3/8"). */
  step?: string;
  /** The working tree it snapshots. */
  dir: string;
}

export interface RestoreResult {
  checkpoint: Checkpoint;
  /** Files written back or removed. */
  changed: number;
}

export class Checkpoints {
  constructor(
    /** `<data dir>/checkpoints`. */
    readonly root: string,
    /** The working tree (aish's directory). */
    readonly dir: string,
  ) {}

  /** Snapshot the tree before a step; null when nothing could be recorded (with the reason thrown as AishError otherwise). */
  async snapshot(label: string, step?: string): Promise<Checkpoint | null> {
    void label;
    void step;
    return null;
  }

  /** Newest first. */
  async list(): Promise<Checkpoint[]> {
    return [];
  }

  /** Put the tree back as it was at checkpoint `id` (default: the newest). */
  async restore(id?: string): Promise<RestoreResult> {
    void id;
    throw new Error('no checkpoints yet');
  }
}
