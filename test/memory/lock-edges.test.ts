/**
 * Lock takeover edges: a pid the kernel gave to another process, a lock from another host, and a
 * lock or store path of the wrong kind.
 */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockBusyError, withLock } from '../../src/memory/log/lock';
import { processStartTime } from '../../src/memory/log/lock-owner';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const TIMING = { waitMs: 50, staleMs: 2000 };

/** A lock directory as another process would leave it, its mtime `ageMs` old. */
function planted(owner: object, ageMs: number): string {
  const path = join(tmpDir(), 'memory.jsonl');
  mkdirSync(`${path}.lock`);
  writeFileSync(`${path}.lock/owner`, JSON.stringify(owner));
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(`${path}.lock`, t, t);
  return path;
}

// pid 1 is alive on every Linux system (init, or the container's first process)
const initStart = processStartTime(1);
const onLinux = initStart !== undefined;

describe('memory lock: pid reuse', () => {
  it.skipIf(!onLinux)('the pid-reuse lock is taken over: live pid, different start time, stale mtime', async () => {
    const path = planted({ pid: 1, host: hostname(), start: initStart! + 12345 }, 60_000);
    const store = MemoryStore.open(path, { lock: TIMING });
    expect((await store.add('fact', 'written after the takeover')).id).toBe(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(store.notices).toEqual([]); // same host: nothing to warn about
  });

  it.skipIf(!onLinux)('a live pid with the same start time is the owner: never taken, however old the mtime', async () => {
    const path = planted({ pid: 1, host: hostname(), start: initStart }, 60_000);
    await expect(MemoryStore.open(path, { lock: TIMING }).add('fact', 'x')).rejects.toThrow(LockBusyError);
    expect(existsSync(`${path}.lock/owner`)).toBe(true);
  });

  it.skipIf(!onLinux)('a different start time alone is not enough while the lock is fresh (another pid namespace)', async () => {
    const path = planted({ pid: 1, host: hostname(), start: initStart! + 12345 }, 0);
    await expect(MemoryStore.open(path, { lock: TIMING }).add('fact', 'x')).rejects.toThrow(LockBusyError);
  });

  it.skipIf(!onLinux)('records the start time of the process that takes the lock', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const owner = await withLock(path, () => JSON.parse(readFileSync(`${path}.lock/owner`, 'utf8')) as unknown);
    expect(owner).toEqual({ pid: process.pid, host: hostname(), start: processStartTime(process.pid) });
  });
});

describe('memory lock: another host', () => {
  const other = { pid: 1, host: `not-${hostname()}`, start: 1 };

  it('is waited for while it is fresh', async () => {
    const path = planted(other, 0);
    await expect(MemoryStore.open(path, { lock: TIMING }).add('fact', 'x')).rejects.toThrow(LockBusyError);
    expect(existsSync(`${path}.lock/owner`)).toBe(true);
  });

  it('is taken over once stale, with a one-line warning', async () => {
    const path = planted(other, 60_000);
    const seen: string[] = [];
    const store = MemoryStore.open(path, { lock: TIMING, notice: (t) => seen.push(t) });
    expect((await store.add('fact', 'x')).id).toBe(1);
    expect(seen).toEqual([`took over memory.jsonl.lock from aish pid 1 on host not-${hostname()} (not refreshed for 60 s)`]);
  });
});

describe('memory paths of the wrong kind', () => {
  it('a lock that is a file: one line that says what to do, nothing written', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(`${path}.lock`, '');
    const store = MemoryStore.open(path, { lock: TIMING });
    await expect(store.add('fact', 'x')).rejects.toThrow(
      `${path}.lock is a file, not aish's lock directory — remove it if no aish is running`,
    );
    expect(existsSync(path)).toBe(false);
  });

  it('a store that is a directory: one line that says what to do', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    mkdirSync(path);
    expect(() => MemoryStore.open(path)).toThrow(`${path} is a directory — point memory.path at a file`);
  });
});
