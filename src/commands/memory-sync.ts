/** `:memory sync [--dry-run] [--yes]`: what `aish memory sync` does, from the REPL. */
import { lockTimingFromEnv } from '../memory/log/lock';
import { confirm } from '../core/host';
import { AishError, UsageError } from '../util/errors';
import { info, warn, type SubCommand } from './types';

const TIMEOUT_MS = 120_000;

export const syncSubcommand: SubCommand<'memory' | 'ui' | 'config'> = {
  name: 'sync',
  args: '[--dry-run] [--yes]',
  help: "send this machine's new items to the repository in memory.sync and take the others' (--dry-run: only say what would happen)",
  complete: (_ctx, argv) => ['--dry-run', '--yes'].filter((f) => !argv.includes(f)),
  run: async ({ memory, ui, config, argv }) => {
    const sync = config.memory ? config.memory.sync : undefined;
    if (!sync) throw new UsageError('memory sync is not set up — add memory: { sync: { remote: "…" } } to the config (see the README)');
    const bad = argv.find((a) => a !== '--dry-run' && a !== '--yes');
    if (bad) throw new UsageError(`unknown option ${bad} — usage: :memory sync [--dry-run] [--yes]`);
    await memory.ready();
    // Loaded when asked for: start-up never needs the sync engine.
    const [{ runSync }, { reportLine }] = await Promise.all([import('../memory/sync/run'), import('../memory/sync/report')]);
    const notes: string[] = [];
    const r = await runSync({
      memoryPath: memory.path,
      remote: sync.remote,
      ...(sync.name && { name: sync.name }),
      dryRun: argv.includes('--dry-run'),
      yes: argv.includes('--yes'),
      ...(ui.interactive && { confirm: (q: string) => confirm(ui, q.replace(/ \[y\/N\] $/, '')) }),
      timeoutMs: TIMEOUT_MS,
      lock: lockTimingFromEnv(),
      notice: (t) => notes.push(t),
    });
    if (r.received > 0 || r.forgotten > 0) memory.reselect();
    const output = notes.map((n) => warn(n));
    if (r.newWriter) output.push(warn(`this data directory is a copy of another machine's; it now writes as ${r.newWriter}`));
    if (r.refused)
      throw new AishError(
        `sync sent ${r.sent}, but what it received would forget ${r.refused.forgets} of ${r.refused.active} items here — nothing received; :memory sync --yes accepts it`,
      );
    return { output: [...output, info(`memory: ${reportLine(r)}`)] };
  },
};
