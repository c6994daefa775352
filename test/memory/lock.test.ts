import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockLostError, withLock } from '../../src/memory/lock';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('memory lock', () => {
  it('takes over a lock with no owner record once its mtime is stale', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    mkdirSync(`${path}.lock`);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(`${path}.lock`, old, old);
    const store = MemoryStore.open(path, { lock: { waitMs: 2000 } });
    expect((await store.add('fact', 'x')).id).toBe(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('sweeps scratch directories left by processes killed mid-acquire', () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    // pid 2^22+1 is above the default pid_max: certainly not running
    mkdirSync(`${path}.lock.4194305.abc123.tmp`);
    writeFileSync(`${path}.lock.4194305.abc123.tmp/owner`, '{}');
    mkdirSync(`${path}.lock.${process.pid}.live99.tmp`); // ours, alive: kept
    MemoryStore.open(path);
    expect(readdirSync(dir).sort()).toEqual([`memory.jsonl.lock.${process.pid}.live99.tmp`]);
  });

  it("takes over an orphaned lock that carries this process's own pid but is not held", async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    mkdirSync(`${path}.lock`);
    writeFileSync(`${path}.lock/owner`, JSON.stringify({ pid: process.pid, host: hostname() }));
    const store = MemoryStore.open(path, { lock: { waitMs: 1000 } });
    expect((await store.add('fact', 'x')).id).toBe(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a compromised lock is reported, not thrown from a timer', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    let sawLost = false;
    await withLock(
      path,
      async (guard) => {
        rmSync(`${path}.lock`, { recursive: true, force: true }); // someone removed our lock
        await sleep(1600); // past the 1000 ms update interval, when proper-lockfile notices
        try {
          guard.assertHeld();
        } catch (err) {
          sawLost = err instanceof LockLostError;
        }
      },
      { waitMs: 1000, staleMs: 2000 },
    );
    expect(sawLost).toBe(true);
    // and the store still works afterwards in this same process
    const store = MemoryStore.open(path);
    expect((await store.add('fact', 'still alive')).id).toBe(1);
  });

  it('a write whose lock is lost before it writes leaves the file untouched', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path, { lock: { staleMs: 2000 } });
    await store.add('fact', 'one');
    const before = readFileSync(path);
    await expect(
      withLock(
        path,
        async (guard) => {
          rmSync(`${path}.lock`, { recursive: true, force: true });
          await sleep(1600);
          guard.assertHeld();
        },
        { waitMs: 1000, staleMs: 2000 },
      ),
    ).rejects.toThrow(/lost the lock on memory\.jsonl/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
