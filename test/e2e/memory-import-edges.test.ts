/**
 * `aish memory import` of hostile inputs through the real CLI: a FIFO and /dev/zero are refused
 * before any read (no hang, no unbounded growth), an 8 MB item is left out and named (no crash),
 * and SIGTERM or SIGINT in the middle of a long import ends it at once with memory.jsonl untouched.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/paths';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const item = (id: number, content: string) => JSON.stringify({ id, ts: '2026-05-13T19:01:01Z', kind: 'fact', content });

describe('aish memory import: what is not a file', () => {
  it('a FIFO nobody writes to: refused at once, exit 2, one line', async () => {
    const dir = tmpDir();
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const r = await runAish(['--data-dir', join(dir, 'data'), 'memory', 'import', fifo], { home: tmpDir(), timeoutMs: 10_000 });
    expect(r).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(r.stderr).toBe(`aish: cannot import ${fifo}: it is a named pipe (FIFO), not a file — give an export or a memory.jsonl\n`);
  });

  it('/dev/zero: refused at once, exit 2, one line', async () => {
    const dir = tmpDir();
    const r = await runAish(['--data-dir', join(dir, 'data'), 'memory', 'import', '/dev/zero'], { home: tmpDir(), timeoutMs: 10_000 });
    expect(r).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(r.stderr).toBe('aish: cannot import /dev/zero: it is a character device, not a file — give an export or a memory.jsonl\n');
  });

  it('an 8 MB item is left out and named; the rest is imported', async () => {
    const dir = tmpDir();
    const file = join(dir, 'big.jsonl');
    const big = item(2, 'word '.repeat(1_700_000));
    writeFileSync(file, [item(1, 'small one'), big, item(3, 'after it')].join('\n') + '\n');
    const data = join(dir, 'data');
    const r = await runAish(['--data-dir', data, 'memory', 'import', file], { home: tmpDir() });
    expect(r.stderr).toBe(`big.jsonl:2: ${big.length} bytes, over the 64 KiB one line may hold — not imported\n`);
    expect(r).toMatchObject({ code: 0, stdout: `imported 2 items from ${file}; skipped 0 duplicates\n` });
    expect(readFileSync(join(data, 'memory.jsonl'), 'utf8')).toContain('"content":"after it"');
  });
});

describe('aish memory import: a signal ends it', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s in the middle of a long import: the process ends, memory.jsonl untouched', async (sig) => {
    const dir = tmpDir();
    const data = join(dir, 'data');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(data, { mode: 0o700 });
    // 100,000 items in memory, the same 100,000 imported (~10 MB): about 2 s of CPU here.
    const lines = Array.from({ length: 100_000 }, (_, i) => item(i + 1, `note ${i} on module ${i % 97}, flags ${(i * 7919) % 10007}`));
    const text = lines.join('\n') + '\n';
    writeFileSync(join(data, 'memory.jsonl'), text, { mode: 0o600 });
    const file = join(dir, 'again.jsonl');
    writeFileSync(file, text);
    const child = spawn(process.execPath, [BIN, '--data-dir', data, 'memory', 'import', file], {
      cwd: ROOT,
      env: isolatedEnv(tmpDir()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // Well into the work: the process has used 0.6 s of CPU (the whole import takes several times that).
    const cpuTicks = () => {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(f[11]) + Number(f[12]); // utime + stime, fields 14 and 15
    };
    await waitUntil(() => cpuTicks() >= 60, 'the import to be well under way', { timeoutMs: 60_000 });
    child.kill(sig);
    // The process must be gone within a couple of seconds; a hung one is killed and the test fails.
    const guard = setTimeout(() => child.kill('SIGKILL'), 3000);
    const [code, signal] = await exited;
    clearTimeout(guard);
    expect({ code, signal, stderr }).toEqual({ code: null, signal: sig, stderr: '' });
    expect(readFileSync(join(data, 'memory.jsonl'), 'utf8')).toBe(text);
    expect(readdirSync(data).sort()).toEqual(['memory.jsonl']);
  });
});
