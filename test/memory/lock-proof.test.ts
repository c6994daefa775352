/**
 * A lock whose owner record does not prove that a live pid is the process that took it — no start
 * time, a garbled one, a pid of 0 or -1, a record that is not JSON — is judged by proper-lockfile's
 * mtime rule: waited for while fresh, taken over once stale. Never kept for as long as the pid lives.
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockBusyError } from '../../src/memory/log/lock';
import { processStartTime } from '../../src/memory/log/lock-owner';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const TIMING = { waitMs: 50, staleMs: 2000 };
// pid 1 is alive on every Linux system, and lives as long as the machine does
const onLinux = processStartTime(1) !== undefined;

function planted(owner: string, ageMs: number): string {
  const path = join(tmpDir(), 'memory.jsonl');
  mkdirSync(`${path}.lock`);
  writeFileSync(`${path}.lock/owner`, owner);
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(`${path}.lock`, t, t);
  return path;
}

const host = hostname();
const records: Array<[string, string]> = [
  ['no start time (an older aish)', JSON.stringify({ pid: 1, host })],
  ['a start time that is not a number', JSON.stringify({ pid: 1, host, start: 'yesterday' })],
  ['a negative start time', JSON.stringify({ pid: 1, host, start: -5 })],
  ['pid -1 (kill would ask about every process)', JSON.stringify({ pid: -1, host })],
  ['pid 0 (kill would ask about the process group)', JSON.stringify({ pid: 0, host, start: 0 })],
  ['a record that is not JSON', '{"pid": 1, "host": '],
  ['a record that is JSON null', 'null'],
];

describe.skipIf(!onLinux)('memory lock: an owner record that proves nothing', () => {
  it.each(records)('%s: taken over once stale', async (_name, owner) => {
    const path = planted(owner, 60_000);
    const store = MemoryStore.open(path, { lock: TIMING });
    expect((await store.add('fact', 'written after the takeover')).id).toBe(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it.each(records.slice(0, 3))('%s: waited for while fresh (a live pid may hold it)', async (_name, owner) => {
    const path = planted(owner, 0);
    await expect(MemoryStore.open(path, { lock: TIMING }).add('fact', 'x')).rejects.toThrow(LockBusyError);
    expect(existsSync(`${path}.lock/owner`)).toBe(true);
  });
});
