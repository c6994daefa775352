/** :checkpoints and :restore [N|ID]: aish's directory as it was before a step, listed and put back. */
import { describeCheckpoint, formatCheckpointLines, formatRestore, resolveTarget } from '../checkpoints/format';
import { confirm } from '../core/host';
import { AishError, UsageError } from '../util/errors';
import { tildify } from '../util/paths';
import { plural } from '../util/time';
import { command, info, rows } from './types';

/** Rows shown without --all: the ones worth restoring are the recent ones. */
const SHOWN = 20;

export const checkpointsCommand = command({
  needs: ['checkpoints'],
  name: 'checkpoints',
  args: '[--all]',
  summary: "this directory's snapshots before steps that may write, newest first (:restore N)",
  help: [
    'Before a step that may write, aish snapshots the directory into a shadow git repository under',
    'its data dir (never your .git; ignored files and files over 10 MB are left out). Rows: position',
    `(1 = newest), id, age, step, command; the newest ${SHOWN} unless --all.`,
  ].join('\n'),
  complete: (_s, argv) => (argv.length === 0 ? ['--all'] : []),
  run: async ({ checkpoints, argv }) => {
    if (argv.length > 1 || (argv[0] !== undefined && argv[0] !== '--all')) throw new UsageError('usage: :checkpoints [--all]');
    const dir = tildify(checkpoints.dir);
    const list = await checkpoints.list();
    if (list.length === 0) return { output: [info(`no checkpoints of ${dir} yet — aish takes one before each step that may write`)] };
    const shown = argv[0] === '--all' ? list : list.slice(0, SHOWN);
    const lines = formatCheckpointLines(shown, new Date());
    const more = shown.length < list.length ? ` (${shown.length} shown, :checkpoints --all for all)` : '';
    lines.push(`${plural(list.length, 'checkpoint')} of ${dir}, newest first${more} — :restore N puts it back as before step N`);
    return { output: [rows(lines.join('\n'))] };
  },
});

export const restoreCommand = command({
  needs: ['checkpoints', 'ui'],
  name: 'restore',
  args: '[N|ID]',
  summary: 'put this directory back as before checkpoint N (1 = newest, the default), after a [y/N]',
  help: [
    'N is a position in :checkpoints (1 = newest), ID a checkpoint id or its first 4+ digits.',
    'Files changed or deleted since are written back with their modes, files created since are removed,',
    'empty directories come back; ignored files, files over 10 MB, nested repositories and .git are never',
    'touched (the result line names them). The state before is checkpointed first: :restore again undoes it.',
  ].join('\n'),
  run: async ({ checkpoints, ui, argv }) => {
    if (argv.length > 1) throw new UsageError('usage: :restore [N|ID]');
    const dir = tildify(checkpoints.dir);
    const list = await checkpoints.list();
    if (list.length === 0) throw new AishError(`no checkpoints of ${dir} — nothing to restore`);
    const target = resolveTarget(list, argv[0], ':checkpoints');
    if (!(await confirm(ui, `put ${dir} back to checkpoint ${describeCheckpoint(target, new Date())}?`)))
      return { output: [info('nothing restored')] };
    const r = await checkpoints.restore(target.commit, ':checkpoints');
    return { output: [info(formatRestore(r, dir, new Date(), ':restore'))] };
  },
});
