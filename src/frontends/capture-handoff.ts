/**
 * Quitting with a session worth capturing: the log goes to a detached `aish __capture` (exit is not
 * delayed by the model call), and with `memory.capture: "ask"` aish says how many candidates wait
 * for review. `-p` and `--norris` never get here with anything to hand off (capture is off there).
 */
import { spawn } from 'node:child_process';
import type { Setup } from '../config/setup';
import type { Engine } from '../core/engine';
import { writeMarker } from '../sessions/capture-marker';
import { plural } from '../util/time';

/** Hand the session's capture to a background process; returns the line to show at quit, if any. */
export function handOffCapture(engine: Engine, setup: Setup): string | null {
  const logs = engine.handOffCapture();
  for (const log of logs) spawnCapture(setup, log, engine.summarizer);
  // With "ask", say how many wait — only when some do: a script's output stays its answers.
  const { inbox, conflicts } = engine.reviewWaiting();
  const waiting = engine.captureMode === 'ask' ? inbox - conflicts : 0;
  if (waiting <= 0 && conflicts === 0) return null;
  const more = logs.length ? '; this session is being read for more in the background' : '';
  const what = [
    ...(waiting > 0 ? [`${plural(waiting, 'memory candidate')} wait${waiting === 1 ? 's' : ''} for review${more}`] : []),
    ...(conflicts > 0 ? [plural(conflicts, 'conflict')] : []),
  ];
  return `inbox: ${what.join(', ')} — aish memory review (or :memory review)`;
}

function spawnCapture(setup: Setup, log: string, preset: string): void {
  const entry = process.argv[1];
  if (!entry) return;
  const args = [
    entry,
    '--data-dir',
    setup.paths.dataDir,
    ...(setup.configPath ? ['--config', setup.configPath] : []),
    '__capture',
    '--session',
    log,
    '--preset',
    preset,
  ];
  try {
    const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', cwd: process.cwd(), env: process.env });
    child.on('error', () => {}); // a failed spawn must not crash an exiting aish
    if (child.pid) writeMarker(log, child.pid);
    child.unref();
  } catch {
    // Nothing to do at exit: the session log is kept and :memory summarize still works.
  }
}
