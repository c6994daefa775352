/** `aish -c` / `--resume NAME` right after a quit: wait (briefly) for the capture of that session. */
import { join } from 'node:path';
import type { Setup } from '../../config/setup';
import { captureRunning, waitForCaptures } from '../../sessions/capture-marker';
import { latestListedSession, SESSION_EXT } from '../../sessions/sessions';

export const RESUME_WAIT_MS = 5000;

export async function waitForResumedCapture(s: Setup, name: string | undefined): Promise<void> {
  const dir = s.paths.sessionsDir;
  let log: string | undefined;
  try {
    log = name !== undefined ? join(dir, name + SESSION_EXT) : latestListedSession(dir)?.path;
  } catch {
    return; // the resume itself reports an unreadable directory
  }
  if (!log || !captureRunning(log)) return;
  const path = log;
  await waitForCaptures(() => (captureRunning(path) ? [path] : []), RESUME_WAIT_MS);
}
