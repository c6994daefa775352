/** The words of checkpoints, shared by `:checkpoints`/`:restore` and `aish checkpoints …`. */
import { UsageError } from '../util/errors';
import { oneLine } from '../util/text';
import { formatAge, plural } from '../util/time';
import type { Checkpoint, LeftOut, RestoreResult } from './types';

const LABEL_MAX = 60;

/** One row per checkpoint: position (1 = newest), id, age, step, command. */
export function formatCheckpointLines(list: readonly Checkpoint[], now: Date): string[] {
  const pos = String(list.length).length;
  // A loop, not Math.max(...spread): checkpoints are never pruned, the list can grow long.
  let step = 1;
  for (const c of list) step = Math.max(step, (c.step ?? '-').length);
  return list.map((c, i) => {
    const skipped = c.skipped ? ` (${plural(c.skipped, 'file')} skipped)` : '';
    return `${String(i + 1).padStart(pos)}  ${c.id}  ${formatAge(c.ts, now).padStart(3)}  ${(c.step ?? '-').padEnd(step)}  ${oneLine(c.label, LABEL_MAX)}${skipped}`;
  });
}

/** `before "rm -rf build"` or `before step 3/8 ("rm -rf build")`. */
export function describeCheckpoint(c: Checkpoint, now: Date): string {
  const what = c.step ? `before ${c.step} ("${oneLine(c.label, 40)}")` : `before "${oneLine(c.label, 40)}"`;
  return `${c.id}, ${formatAge(c.ts, now)} ago, ${what}`;
}

/**
 * Which checkpoint `:restore ARG` means. A number of 1 to 3 digits is a position in the list
 * (1 = newest); anything else is an id, or the start of one (at least 4 hex digits). No ARG: the
 * newest.
 */
export function resolveTarget(list: readonly Checkpoint[], arg: string | undefined, hint: string): Checkpoint {
  if (list.length === 0) throw new UsageError('no checkpoints');
  if (arg === undefined || arg === '') return list[0]!;
  if (/^\d{1,3}$/.test(arg)) {
    const n = Number(arg);
    if (n >= 1 && n <= list.length) return list[n - 1]!;
    throw new UsageError(`no checkpoint ${arg} — there ${list.length === 1 ? 'is 1' : `are ${list.length}`} (see ${hint})`);
  }
  if (!/^[0-9a-f]{4,40}$/i.test(arg)) throw new UsageError(`"${arg}" is neither a position (1 = newest) nor a checkpoint id (see ${hint})`);
  const found = list.filter((c) => c.commit.startsWith(arg.toLowerCase()));
  if (found.length === 1) return found[0]!;
  throw new UsageError(
    found.length ? `checkpoint id ${arg} is ambiguous — give more digits (see ${hint})` : `no checkpoint ${arg} (see ${hint})`,
  );
}

const LEFT_WORDS: Record<keyof LeftOut, string> = {
  ignored: 'ignored',
  large: 'over the size cap',
  nested: 'in a nested repository',
  unreadable: 'unreadable',
  dirs: 'empty directories past the limit',
};

/**
 * What a checkpoint did not capture, so a restore cannot bring back: counts by reason and the first
 * paths, e.g. `not in the checkpoint, so not restored: 2 ignored (build/, .env), 1 over the size cap (big.bin)`.
 */
function formatLeftOut(left: LeftOut | undefined): string {
  if (!left) return '';
  const parts = (Object.keys(LEFT_WORDS) as Array<keyof LeftOut>).flatMap((k) => {
    const g = left[k];
    if (!g) return [];
    const more = g.n > g.paths.length ? ', …' : '';
    return [`${g.n} ${LEFT_WORDS[k]} (${g.paths.map((p) => oneLine(p, 60)).join(', ')}${more})`];
  });
  return parts.length ? `not in the checkpoint, so not restored: ${parts.join('; ')}` : '';
}

/** What a restore did, what it could not, and how to undo it. */
export function formatRestore(r: RestoreResult, dir: string, now: Date, undo: string): string {
  const left = formatLeftOut(r.checkpoint.left);
  const tail = left ? ` — ${left}` : '';
  if (r.changed === 0) return `${dir} is already as at checkpoint ${describeCheckpoint(r.checkpoint, now)}; nothing changed${tail}`;
  const parts = [`${plural(r.written, 'file')} written back`, `${plural(r.removed, 'file')} removed`];
  if (r.modes) parts.push(`permissions set back on ${plural(r.modes, 'path')}`);
  if (r.dirs) parts.push(`${r.dirs} empty ${r.dirs === 1 ? 'directory' : 'directories'} recreated`);
  const kept = r.keptLarge ? `; ${plural(r.keptLarge, 'file')} over the size cap left as they are` : '';
  const before = r.before ? ` (the state before is checkpoint ${r.before.id})` : '';
  return `restored ${dir} to checkpoint ${describeCheckpoint(r.checkpoint, now)}: ${parts.join(', ')}${kept}${tail} — undo with ${undo}${before}`;
}
