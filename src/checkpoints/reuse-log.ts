/**
 * A snapshot that finds the tree unchanged records nothing new: the step's before-state is the
 * newest checkpoint, whatever its age. `:rewind` needs to know that it happened, and when — the
 * oldest checkpoint *taken* during the exchanges taken back is not their before-state when the
 * first writing step reused an older one. So each reuse is noted in the shadow repository
 * (`aish-reuses.jsonl`, its last lines only): the time and the checkpoint reused.
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Checkpoint } from './types';

const FILE = 'aish-reuses.jsonl';
/** Past this size the log is cut to its last KEEP lines (a note is ~80 bytes). */
const MAX_BYTES = 64 * 1024;
const KEEP = 200;

interface Reuse {
  ts: string;
  commit: string;
}

/** Note that a snapshot now reused `commit`. A failure to note is not the step's failure. */
export function noteReuse(gitDir: string, commit: string, now = new Date()): void {
  const path = join(gitDir, FILE);
  try {
    appendFileSync(path, JSON.stringify({ ts: now.toISOString(), commit }) + '\n', { mode: 0o600 });
    if (statSync(path).size > MAX_BYTES) writeFileSync(path, readLines(path).slice(-KEEP).join('\n') + '\n', { mode: 0o600 });
  } catch {
    // :rewind then falls back to the checkpoints taken, as before
  }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function reuses(gitDir: string): Reuse[] {
  const out: Reuse[] = [];
  for (const line of readLines(join(gitDir, FILE))) {
    try {
      const r = JSON.parse(line) as Partial<Reuse>;
      if (typeof r.ts === 'string' && typeof r.commit === 'string') out.push({ ts: r.ts, commit: r.commit });
    } catch {
      // a torn line: skipped
    }
  }
  return out;
}

/**
 * The tree as it was before the first step that may have written at or after `since`: the oldest
 * checkpoint taken since, or the one a snapshot since reused, whichever came first. `list` is
 * newest first, as Checkpoints.list() gives it.
 */
export function beforeSince(gitDir: string, list: readonly Checkpoint[], since: string): Checkpoint | null {
  const from = Date.parse(since);
  const taken = list.filter((c) => Date.parse(c.ts) >= from).at(-1);
  const reused = reuses(gitDir)
    .filter((r) => Date.parse(r.ts) >= from && (!taken || Date.parse(r.ts) < Date.parse(taken.ts)))
    .map((r) => list.find((c) => c.commit === r.commit))
    .find((c) => c !== undefined);
  return reused ?? taken ?? null;
}
