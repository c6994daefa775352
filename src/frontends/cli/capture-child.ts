/**
 * `aish __capture --session LOG --model PRESET` (hidden): the detached capture a quitting aish hands
 * its session log to. Nobody watches it: it prints nothing, gives up after a few minutes, and a
 * failure is appended to <data dir>/logs/capture.log.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Models } from '../../broker/models';
import type { Setup } from '../../config/setup';
import { captureSession } from '../../core/capture';
import { captureDeps } from '../../core/capture-deps';
import { Inbox } from '../../memory/review/inbox';
import { MemoryStore } from '../../memory/store';
import { removeMarker, writeMarker } from '../../sessions/capture-marker';
import { formatError } from '../../util/errors';

const TIME_LIMIT_MS = 5 * 60_000;

export async function runCaptureChild(s: Setup, opts: { session: string; preset?: string }): Promise<number> {
  const log = resolve(opts.session);
  writeMarker(log, process.pid); // the parent wrote it too; this covers a parent that could not
  try {
    if (s.config.memory === false || s.config.memory.capture === 'off') return 0;
    const models = new Models(s.config, opts.preset ?? s.config.defaultModel);
    const store = MemoryStore.open(s.paths.memoryPath);
    await captureSession(
      log,
      captureDeps({ broker: models.broker(), items: () => store.reload().items, inbox: Inbox.open(s.paths.memoryPath) }),
      AbortSignal.timeout(TIME_LIMIT_MS),
    );
    return 0;
  } catch (err) {
    note(s, `${new Date().toISOString()} capture of ${log} failed: ${formatError(err)}\n`);
    return 1;
  } finally {
    removeMarker(log, process.pid);
  }
}

function note(s: Setup, line: string): void {
  try {
    const dir = join(s.paths.dataDir, 'logs');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    appendFileSync(join(dir, 'capture.log'), line, { mode: 0o600 });
  } catch {
    // Nowhere left to say it.
  }
}
