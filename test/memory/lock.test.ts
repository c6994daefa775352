import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LockGuard } from '../../src/memory/log/lock';
import type { MemoryStore as Store } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';
import { withFakeClock, type FakeClock } from '../helpers/fake-clock';

/**
 * The store's own withLock, with a hook that runs between taking the lock and the store's locked
 * callback (where it checks the lock and writes): tests use it to take the lock away at that point.
 * The unit project shares loaded modules between test files, so the store is loaded afresh here,
 * after the lock module is replaced, and both are dropped again after this file.
 */
const beforeLockedWork = new Map<string, (guard: LockGuard) => Promise<void>>();
vi.resetModules();
vi.doMock('../../src/memory/log/lock', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/memory/log/lock')>();
  const withLock: typeof real.withLock = (file, fn, timing) =>
    real.withLock(
      file,
      async (guard) => {
        await beforeLockedWork.get(file)?.(guard);
        return fn(guard);
      },
      timing,
    );
  return { ...real, withLock };
});
const { LockLostError, withLock } = await import('../../src/memory/log/lock');
const { MemoryStore } = await import('../../src/memory/store');
afterAll(() => {
  vi.doUnmock('../../src/memory/log/lock');
  vi.resetModules();
});

/**
 * Removes our lock directory (as a process that wrongly took the lock over would) and advances the
 * fake clock until the guard reports the lock lost: proper-lockfile checks its lock every
 * staleMs / 2 (1 s here), on a timer.
 */
async function loseLock(file: string, guard: LockGuard, clock: FakeClock): Promise<void> {
  rmSync(`${file}.lock`, { recursive: true, force: true });
  await clock.advanceUntil(
    () => {
      try {
        guard.assertHeld();
        return false;
      } catch (err) {
        return err instanceof LockLostError;
      }
    },
    'the guard to report the lock lost',
    { stepMs: 100 },
  );
}

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

  it('a compromised lock is reported by the guard, not thrown from a timer; the store works afterwards', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    let lost: unknown;
    await withFakeClock((clock) =>
      clock.settle(
        withLock(
          path,
          async (guard) => {
            await loseLock(path, guard, clock);
            try {
              guard.assertHeld();
            } catch (err) {
              lost = err;
            }
          },
          { waitMs: 1000, staleMs: 2000 },
        ),
        'withLock',
        { stepMs: 0 },
      ),
    );
    expect(lost).toBeInstanceOf(LockLostError);
    const store = MemoryStore.open(path);
    expect((await store.add('fact', 'still alive')).id).toBe(1);
    expect(readFileSync(path, 'utf8')).toContain('still alive');
  });

  // The store checks the guard right before it writes: a lock lost between taking it and writing
  // must leave memory.jsonl exactly as it was, through the store's real write paths.
  it.each([
    ['add', (s: Store) => s.add('fact', 'written without the lock')],
    ['compact', (s: Store) => s.compact()],
  ] as const)('%s with its lock lost before it writes leaves memory.jsonl untouched', async (_name, write) => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path, { lock: { waitMs: 1000, staleMs: 2000 } });
    await store.add('fact', 'one');
    await store.add('fact', 'two');
    await store.forget(1); // gives compaction something to rewrite
    const before = readFileSync(path);
    await withFakeClock(async (clock) => {
      beforeLockedWork.set(path, (guard) => loseLock(path, guard, clock));
      try {
        await expect(write(store)).rejects.toThrow(/^lost the lock on memory\.jsonl/);
      } finally {
        beforeLockedWork.delete(path);
      }
    });
    expect(readFileSync(path).equals(before)).toBe(true);
    // with the lock back, the same store writes again
    await write(store);
    expect(readFileSync(path).equals(before)).toBe(false);
  });
});
