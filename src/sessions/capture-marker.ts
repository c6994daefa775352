/**
 * `<log>.jsonl.capturing` holds the pid of a detached capture reading that log, so whoever needs its
 * result — `aish -c` continuing the session, `aish memory review` listing the inbox — can wait for
 * it a moment instead of racing it. A marker whose process is gone is stale and ignored.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../util/process';

const SUFFIX = '.capturing';

function markerPath(sessionPath: string): string {
  return sessionPath + SUFFIX;
}

export function writeMarker(sessionPath: string, pid: number): void {
  try {
    writeFileSync(markerPath(sessionPath), `${pid}\n`, { mode: 0o600 });
  } catch {
    // Only a courtesy to readers: capture works without it.
  }
}

/** Removes the marker if it still names `pid`. */
export function removeMarker(sessionPath: string, pid: number): void {
  if (markerPid(markerPath(sessionPath)) === pid) rmSync(markerPath(sessionPath), { force: true });
}

function markerPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Is a capture of this log running now? */
export function captureRunning(sessionPath: string): boolean {
  const pid = markerPid(markerPath(sessionPath));
  return pid !== undefined && isAlive(pid);
}

/** Logs in `sessionsDir` a capture is reading now. */
export function runningCaptures(sessionsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl' + SUFFIX))
    .map((n) => join(sessionsDir, n.slice(0, -SUFFIX.length)))
    .filter(captureRunning);
}

/** Resolves once no capture of these logs runs, or after `ms`. */
export async function waitForCaptures(running: () => string[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running().length > 0) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
