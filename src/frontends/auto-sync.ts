/**
 * `memory.sync.auto: "start"`: once the REPL's first prompt is drawn, one sync runs in this process
 * (memory/sync/run.ts; git never asks anything; 20 s at most). Its git work runs in child processes
 * and nothing waits for it: a keystroke or a model call never does. Its one line goes to the status
 * line; received items are in [background] from the next turn. Quitting does not wait for it
 * (`settled`): a sync stopped anywhere is completed by the next.
 */
import type { Setup } from '../config/setup';
import type { Engine } from '../core/engine';
import { lockTimingFromEnv } from '../memory/log/lock';
import type { SyncReport } from '../memory/sync/report';
import { formatError } from '../util/errors';

/** The background sync of a starting REPL: never longer than this. */
const BACKGROUND_TIMEOUT_MS = 20_000;

/** Start the background sync when the config asks for one; `settled()` says whether it has ended (or never started). */
export function startAutoSync(engine: Engine, setup: Setup): { settled(): boolean } {
  const memory = setup.config.memory;
  if (!memory || !memory.sync || memory.sync.auto !== 'start') return { settled: () => true };
  const sync = memory.sync;
  let done = false;
  void (async () => {
    try {
      // Loaded now, after the first frame: start-up never needs the sync engine.
      const { runSync } = await import('../memory/sync/run');
      const r = await runSync({
        memoryPath: setup.paths.memoryPath,
        remote: sync.remote,
        ...(sync.name && { name: sync.name }),
        timeoutMs: BACKGROUND_TIMEOUT_MS,
        lock: lockTimingFromEnv(),
      });
      const note = syncNote(r);
      engine.syncFinished(note.text, note.received);
    } catch (err) {
      engine.syncFinished(`sync failed: ${formatError(err).replace(/^memory sync: /, '')}`, false);
    } finally {
      done = true;
    }
  })();
  return { settled: () => done };
}

/** The status line's words for how the sync ended. */
export function syncNote(r: Pick<SyncReport, 'sent' | 'received' | 'forgotten' | 'conflicts' | 'refused' | 'waiting'>): {
  text: string;
  received: boolean;
} {
  if (r.refused) return { text: `sync held back ${r.refused.forgets} forgets — run :memory sync`, received: false };
  const conflicts = r.conflicts > 0 ? `, ${r.conflicts} conflict${r.conflicts === 1 ? '' : 's'}` : '';
  const held = (r.waiting ?? []).reduce((n, w) => n + w.n, 0);
  const waits = held > 0 ? `, ${held} wait in :memory review` : '';
  return { text: `synced ↑${r.sent} ↓${r.received}${conflicts}${waits}`, received: r.received > 0 || r.forgotten > 0 };
}
