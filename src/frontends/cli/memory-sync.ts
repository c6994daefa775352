/** `aish memory sync [--dry-run] [--json] [--yes]`: one sync with the repository in `memory.sync`. */
import { createInterface } from 'node:readline/promises';
import type { Setup } from '../../config/setup';
import { lockTimingFromEnv } from '../../memory/log/lock';
import { reportLine, type SyncReport } from '../../memory/sync/report';
import { runSync } from '../../memory/sync/run';
import { AishError, UsageError } from '../../util/errors';
import { allowLineEditing, shown } from '../../util/output-guard';
import { memoryOn } from './memory-store';
import { out, warn } from './output';

/** A sync asked for by hand waits longer than the background one (20 s): it may be the first, sending everything. */
const TIMEOUT_MS = 120_000;

/** The background sync of a starting REPL: never longer than this. */
const BACKGROUND_TIMEOUT_MS = 20_000;

export async function memorySync(s: Setup, opts: { dryRun?: boolean; json?: boolean; yes?: boolean; background?: boolean }): Promise<void> {
  memoryOn(s);
  const sync = s.config.memory ? s.config.memory.sync : undefined;
  if (!sync)
    throw new UsageError(
      `memory sync is not set up — add memory: { sync: { remote: "…" } } to ${s.configPath ?? 'the config'} (see aish --help and the README, "Memory on several machines")`,
    );
  const report = await runSync({
    memoryPath: s.paths.memoryPath,
    remote: sync.remote,
    ...(sync.name && { name: sync.name }),
    dryRun: opts.dryRun === true,
    yes: opts.yes === true,
    ...(process.stdin.isTTY && !opts.background && { confirm: askYesNo }),
    timeoutMs: opts.background ? BACKGROUND_TIMEOUT_MS : TIMEOUT_MS,
    lock: lockTimingFromEnv(),
    notice: (t) => warn(`warning: ${t}`),
  });
  if (report.newWriter) warn(`note: this data directory is a copy of another machine's; it now writes as ${report.newWriter}`);
  if (opts.json) out(JSON.stringify(jsonReport(report)));
  if (report.refused)
    throw new AishError(
      `sync sent ${report.sent}, but what it received would forget ${report.refused.forgets} of ${report.refused.active} items here — nothing received; run aish memory sync --yes to accept`,
    );
  if (!opts.json) out(reportLine(report));
}

function jsonReport(r: SyncReport): Record<string, unknown> {
  return {
    sent: r.sent,
    received: r.received,
    machines: r.machines,
    conflicts: r.conflicts,
    forgotten: r.forgotten,
    kept_local: r.held,
    dry_run: r.dryRun,
    ...(r.future && { future: r.future }),
    ...(r.refused && { refused: r.refused }),
    ...(r.waiting && { waiting: r.waiting }),
    ...(r.newWriter && { new_writer: r.newWriter }),
  };
}

async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const endEditing = allowLineEditing();
  try {
    const a = await rl.question(shown(question));
    return /^y(es)?$/i.test(a.trim());
  } catch {
    return false;
  } finally {
    rl.close();
    endEditing();
  }
}
