/** The memory lock against other real processes: a holder killed with SIGKILL, a live holder. */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockBusyError } from '../../src/memory/log/lock';
import { processStartTime } from '../../src/memory/log/lock-owner';
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
      const r = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'blocked'], {
        home: tmpDir(),
        env: { AISH_LOCK_WAIT_MS: '300' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(/^aish: memory\.jsonl held by another aish process/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(path).equals(before)).toBe(true);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
  });

  it.skipIf(processStartTime(1) === undefined)(
    'the pid-reuse lock is taken over through the CLI: live pid, another start time, stale',
    async () => {
      const dir = tmpDir();
      const path = join(dir, 'memory.jsonl');
      mkdirSync(`${path}.lock`);
      writeFileSync(`${path}.lock/owner`, JSON.stringify({ pid: 1, host: hostname(), start: processStartTime(1)! + 1 }));
      const old = (Date.now() - 60_000) / 1000;
      utimesSync(`${path}.lock`, old, old);
      const r = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'after the takeover'], {
        home: tmpDir(),
        env: { AISH_LOCK_STALE_MS: '2000' },
      });
      expect(r).toMatchObject({ code: 0, stdout: 'added 1 (fact)\n', stderr: '' });
      expect(existsSync(`${path}.lock`)).toBe(false);
    },
  );

  it('a lock that is a file, a store that is a directory: one line each, exit 1', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    writeFileSync(`${path}.lock`, '');
    const r = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'x'], { home: tmpDir() });
    expect(r).toMatchObject({
      code: 1,
      stderr: `aish: ${path}.lock is a file, not aish's lock directory — remove it if no aish is running\n`,
    });
    mkdirSync(join(dir, 'd', 'memory.jsonl'), { recursive: true });
    const l = await runAish(['--data-dir', join(dir, 'd'), 'memory', 'list'], { home: tmpDir() });
    expect(l).toMatchObject({ code: 1, stderr: `aish: ${join(dir, 'd', 'memory.jsonl')} is a directory — point memory.path at a file\n` });
  });
});
