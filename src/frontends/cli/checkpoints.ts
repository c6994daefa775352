/** `aish checkpoints list [--json]` and `aish checkpoints restore [N|ID] [--yes]`, for the current directory. */
import { Checkpoints, checkpointsRoot } from '../../checkpoints/checkpoints';
import { describeCheckpoint, formatCheckpointLines, formatRestore, resolveTarget } from '../../checkpoints/format';
import type { Setup } from '../../config/setup';
import { AishError, UsageError } from '../../util/errors';
import { tildify } from '../../util/paths';
import { plural } from '../../util/time';
import { out, outJson } from './output';

const HINT = 'aish checkpoints list';

function open(s: Setup): Checkpoints {
  return new Checkpoints(checkpointsRoot(s.paths.dataDir), process.cwd());
}

export async function checkpointsList(s: Setup, opts: { json?: boolean }): Promise<void> {
  const cps = open(s);
  const list = await cps.list();
  if (opts.json) {
    outJson(list.map((c, i) => ({ position: i + 1, ...c })));
    return;
  }
  const dir = tildify(cps.dir);
  if (list.length === 0) {
    out(`no checkpoints of ${dir} — aish takes one before each step that may write`);
    return;
  }
  for (const l of formatCheckpointLines(list, new Date())) out(l);
  out(`${plural(list.length, 'checkpoint')} of ${dir}, newest first — aish checkpoints restore [N|ID] --yes puts it back`);
}

export async function checkpointsRestore(s: Setup, id: string | undefined, opts: { yes: boolean }): Promise<void> {
  const cps = open(s);
  const dir = tildify(cps.dir);
  const list = await cps.list();
  if (list.length === 0) throw new AishError(`no checkpoints of ${dir} — nothing to restore`);
  const target = resolveTarget(list, id, HINT);
  if (!opts.yes) {
    throw new UsageError(
      `this would put ${dir} back to checkpoint ${describeCheckpoint(target, new Date())} — run again with --yes to confirm`,
    );
  }
  const r = await cps.restore(target.commit, HINT);
  out(formatRestore(r, dir, new Date(), 'aish checkpoints restore --yes'));
}
