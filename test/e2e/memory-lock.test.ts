/** The memory lock against other real processes: a holder killed with SIGKILL, a live holder. */
import { existsSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockBusyError } from '../../src/memory/lock';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { startWorker } from '../helpers/processes';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('memory lock across processes', () => {
  it('takes over a stale lock left by a killed process', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const holder = startWorker('memory-writer', { mode: 'hold', path, staleMs: 2000 });
    await holder.waitFor((l) => l === 'locked');
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(`${path}.lock`)).toBe(true); // left behind by the crash

    const store = MemoryStore.open(path, { lock: { staleMs: 2000, waitMs: 8000 } });
    const item = await store.add('fact', 'written after the takeover');
    expect(item.id).toBe(1);
    expect(loadMemory(path).items.map((i) => i.content)).toEqual(['written after the takeover']);
    expect(existsSync(`${path}.lock`)).toBe(false); // released after the write
  });

  it('never takes a lock whose owner is alive, however old its mtime', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const holder = startWorker('memory-writer', { mode: 'hold', path });
    try {
      await holder.waitFor((l) => l === 'locked');
      const old = (Date.now() - 60_000) / 1000;
      utimesSync(`${path}.lock`, old, old); // looks stale to proper-lockfile
      const store = MemoryStore.open(path, { lock: { waitMs: 500, staleMs: 2000 } });
      await expect(store.add('fact', 'x')).rejects.toThrow(LockBusyError);
      expect(existsSync(`${path}.lock`)).toBe(true);
      expect(JSON.parse(readFileSync(`${path}.lock/owner`, 'utf8'))).toMatchObject({ pid: holder.child.pid });
      expect(existsSync(path)).toBe(false);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
  });

  it('gives up after the bounded wait while a live process holds the lock, writing nothing', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    const seed = MemoryStore.open(path);
    await seed.add('fact', 'existing');
    const before = readFileSync(path);

    const holder = startWorker('memory-writer', { mode: 'hold', path });
    try {
      await holder.waitFor((l) => l === 'locked');
      const store = MemoryStore.open(path, { lock: { waitMs: 300 } });
      await expect(store.add('fact', 'blocked')).rejects.toThrow(LockBusyError);
      await expect(store.add('fact', 'blocked')).rejects.toThrow(/^memory\.jsonl held by another aish process/);
      expect(readFileSync(path).equals(before)).toBe(true);

      // the same through the real CLI: one line, exit 1, nothing written
      const r = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'blocked'], { home: tmpDir(), env: { AISH_LOCK_WAIT_MS: '300' } });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(/^aish: memory\.jsonl held by another aish process/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(path).equals(before)).toBe(true);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
  });
});
