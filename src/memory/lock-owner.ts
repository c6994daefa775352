/**
 * Who holds memory.jsonl's lock, and whether they can still be alive. The lock directory carries an
 * `owner` file: pid, host, and the process's start time (Linux), so that a pid the kernel has since
 * given to another process is not mistaken for the owner.
 */
import fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../util/process';

export const HOST = hostname();
const OWNER = 'owner';

export interface Owner {
  pid: number;
  host: string;
  /** Start time of the owning process, clock ticks since boot; absent off Linux (and from older aish). */
  start?: number;
}

export function readOwner(dir: string): Owner | undefined {
  try {
    const o = JSON.parse(fs.readFileSync(join(dir, OWNER), 'utf8')) as Partial<Owner>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
    return typeof o.start === 'number' ? { pid: o.pid, host: o.host, start: o.start } : { pid: o.pid, host: o.host };
  } catch {
    return undefined;
  }
}

export function writeOwner(dir: string): void {
  const me: Owner = { pid: process.pid, host: HOST };
  const start = ownStartTime();
  if (start !== undefined) me.start = start;
  fs.writeFileSync(join(dir, OWNER), JSON.stringify(me), { mode: 0o600 });
}

/** Field 22 of /proc/<pid>/stat (starttime); undefined off Linux or when the process is gone. */
export function processStartTime(pid: number): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ")": count from the last one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const v = Number(fields[22 - 3]);
  return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

let ownStart: number | undefined | null = null;
function ownStartTime(): number | undefined {
  if (ownStart === null) ownStart = processStartTime(process.pid);
  return ownStart;
}

/**
 * Whether the owner may still hold the lock. `stale`: the lock's mtime is older than the stale
 * period (a live owner refreshes it). `heldHere`: this process holds that lock right now (our own
 * pid on a lock we do not hold is an orphan of an earlier process with the same pid).
 *
 * Another host cannot be asked: its lock counts as alive until it goes stale. A live pid on this
 * host whose start time differs from the record is another process that got the number later —
 * but only a stale lock is judged so, since a pid namespace (a container) could show the same
 * number for a different, live owner, and that owner would keep its lock fresh.
 */
export function ownerMayBeAlive(o: Owner | undefined, stale: boolean, heldHere: boolean): boolean {
  if (!o) return false;
  if (o.host !== HOST) return !stale;
  if (o.pid === process.pid) return heldHere;
  if (!isAlive(o.pid)) return false;
  if (stale && o.start !== undefined) {
    const now = processStartTime(o.pid);
    if (now !== undefined && now !== o.start) return false;
  }
  return true;
}
