/**
 * Who holds memory.jsonl's lock, and whether they can still be alive. The lock directory carries an
 * `owner` file: pid, host, and the process's start time (Linux), so that a pid the kernel has since
 * given to another process is not mistaken for the owner.
 */
import fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openRegular, readAt } from '../../util/fs-safe';
import { isAlive } from '../../util/process';

export const HOST = hostname();
const OWNER = 'owner';

export interface Owner {
  pid: number;
  host: string;
  /** Start time of the owning process, clock ticks since boot; absent off Linux (and from older aish). */
  start?: number;
}

/** The owner file's text: a regular file of at most 4 KiB, else it throws (a FIFO planted there must not block). */
function ownerText(dir: string): string {
  const fd = openRegular(join(dir, OWNER), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    return readAt(fd, 0, 4096).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

export function readOwner(dir: string): Owner | undefined {
  try {
    const o = JSON.parse(ownerText(dir)) as Partial<Owner> | null;
    // pid 0 or -1 would ask kill() about a whole process group, or every process: no owner.
    if (!o || !isPid(o.pid) || typeof o.host !== 'string') return undefined;
    return isTicks(o.start) ? { pid: o.pid, host: o.host, start: o.start } : { pid: o.pid, host: o.host };
  } catch {
    return undefined;
  }
}

const isPid = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
const isTicks = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

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
 * Another host cannot be asked: its lock counts as alive until it goes stale. On this host a
 * fresh lock with a live pid is waited for, whatever its start time says: a pid namespace (a
 * container) could show the same number for a different, live owner, which keeps its lock fresh.
 * A stale lock is kept only when the record proves its live holder is the very process that took
 * it (same start time): one stopped with Ctrl-Z, say. A record without a start time (older aish,
 * not Linux, hand-made or garbled) proves nothing, so the mtime rule decides, as proper-lockfile's
 * own: a live pid must never block writes for as long as it lives.
 */
export function ownerMayBeAlive(o: Owner | undefined, stale: boolean, heldHere: boolean): boolean {
  if (!o) return false;
  if (o.host !== HOST) return !stale;
  if (o.pid === process.pid) return heldHere;
  if (!isAlive(o.pid)) return false;
  if (!stale) return true;
  return o.start !== undefined && processStartTime(o.pid) === o.start;
}
