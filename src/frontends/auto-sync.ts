/**
 * `memory.sync.auto: "start"`: once the REPL's first prompt is drawn, a child `aish memory sync
 * --background` syncs (git never asks anything; 20 s at most). A separate process, so even a first
 * sync of a large store never holds up a keystroke or a model call. Its one line goes to the
 * status line; received items are in [background] from the next turn. Quitting does not wait for
 * it: the child finishes (or times out) on its own, and a sync stopped anywhere is completed by the
 * next.
 */
import { spawn } from 'node:child_process';
import type { Setup } from '../config/setup';
import type { Engine } from '../core/engine';

interface Counts {
  sent: number;
  received: number;
  conflicts: number;
  refused?: { forgets: number };
  /** Received records the guards hold for review. */
  waiting?: Array<{ n: number }>;
}

/** Start the background sync when the config asks for one; nothing otherwise. */
export function startAutoSync(engine: Engine, setup: Setup): void {
  const memory = setup.config.memory;
  const entry = process.argv[1];
  if (!memory || !memory.sync || memory.sync.auto !== 'start' || !entry) return;
  const args = [
    entry,
    '--data-dir',
    setup.paths.dataDir,
    ...(setup.configPath ? ['--config', setup.configPath] : []),
    'memory',
    'sync',
    '--json',
    '--background',
  ];
  let out = '';
  let err = '';
  try {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: process.cwd(),
      env: process.env,
    });
    child.on('error', () => engine.syncFinished('sync could not start', false));
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => {
      const note = syncNote(code, out, err);
      engine.syncFinished(note.text, note.received);
    });
    child.unref();
    (child.stdout as { unref?: () => void }).unref?.();
    (child.stderr as { unref?: () => void }).unref?.();
  } catch {
    engine.syncFinished('sync could not start', false);
  }
}

/** The status line's words for how the child ended. */
export function syncNote(code: number | null, stdout: string, stderr: string): { text: string; received: boolean } {
  let counts: Counts | undefined;
  try {
    counts = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Counts;
  } catch {
    counts = undefined;
  }
  if (counts?.refused) return { text: `sync held back ${counts.refused.forgets} forgets — run :memory sync`, received: false };
  if (code === 0 && counts) {
    const conflicts = counts.conflicts > 0 ? `, ${counts.conflicts} conflict${counts.conflicts === 1 ? '' : 's'}` : '';
    const held = (counts.waiting ?? []).reduce((n, w) => n + w.n, 0);
    const waits = held > 0 ? `, ${held} wait in :memory review` : '';
    return { text: `synced ↑${counts.sent} ↓${counts.received}${conflicts}${waits}`, received: counts.received > 0 };
  }
  const said = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  return { text: `sync failed: ${(said ?? `exit ${code ?? 'signal'}`).replace(/^aish: (memory sync: )?/, '')}`, received: false };
}
