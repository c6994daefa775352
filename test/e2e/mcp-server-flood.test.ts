/**
 * `aish mcp` (the built CLI, real processes) against clients that flood it: one that sends
 * thousands of calls and never reads the answers (aish must stop reading, not buffer them all),
 * one that sends a batch and closes stdin (every call still answered), SIGTERM while writes are
 * under way (calls finish whole, the lock is released, the exit is the signal's status).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN } from '../helpers/paths';
import { isolatedEnv } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

interface Raw {
  child: ChildProcessWithoutNullStreams;
  data: string;
  send: (msg: object) => boolean;
  /** Every answer read so far (stdout is read only once `read()` is called). */
  answers: Array<Record<string, unknown>>;
  read: () => void;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

function rawMcp(opts: { items?: number; config?: string; words?: number } = {}): Raw {
  const home = tmpDir();
  const data = join(home, 'data');
  mkdirSync(data);
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  for (let i = 1; i <= (opts.items ?? 0); i++)
    lines.push(
      JSON.stringify({ id: i, ts: '2026-01-01T00:00:00.000Z', kind: 'fact', content: `item ${i} ${'w'.repeat(opts.words ?? 60)}` }),
    );
  writeFileSync(join(data, 'memory.jsonl'), lines.join('\n') + '\n', { mode: 0o600 });
  const cfg = join(home, 'config.ts');
  writeFileSync(cfg, `export default ${opts.config ?? '{}'};\n`);
  const child = spawn(process.execPath, [BIN, '--config', cfg, '--data-dir', data, 'mcp'], {
    env: isolatedEnv(home),
    cwd: home,
    stdio: 'pipe',
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  child.stdin.on('error', () => {});
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const answers: Array<Record<string, unknown>> = [];
  let out = '';
  const read = () =>
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        answers.push(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
        out = out.slice(nl + 1);
      }
    });
  const send = (msg: object) => child.stdin.write(JSON.stringify(msg) + '\n');
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { child, data, send, answers, read, exit, stderr: () => err };
}

const call = (id: number, name: string, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** Peak resident memory of a process, in MB. */
function peakMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) / 1024;
}

describe('aish mcp: a client that never reads its answers', () => {
  it('aish stops reading instead of buffering the answers; once read, every call is answered', async () => {
    // Items of 900 characters: 8 make an answer of nearly 8,000 characters, cheaply.
    const m = rawMcp({ items: 300, words: 900 });
    const N = 16_000; // 128 MB of answers if all were buffered
    for (let i = 1; i <= N; i++) m.send(call(i, 'memory_list', { limit: 8 }));
    // Either aish has read everything (and holds every answer), or it stopped reading: the
    // client's own stdin buffer then stays full while nobody reads stdout.
    // aish may still be starting: it has stopped only once it has read some and then no more for 2 s.
    const sent = m.child.stdin.writableLength;
    const seen: number[] = [];
    await waitUntil(
      () => {
        const left = m.child.stdin.writableLength;
        seen.push(left);
        const still = left < sent && seen.length >= 3 && seen.slice(-3).every((x) => x === left);
        return left === 0 || still || peakMb(m.child.pid!) > 300;
      },
      'aish to read everything or to stop reading',
      { timeoutMs: 60_000, intervalMs: 1000 },
    );
    const peak = peakMb(m.child.pid!);
    expect(m.child.stdin.writableLength, 'aish read every request while no answer was read').toBeGreaterThan(0);
    expect(peak).toBeLessThan(170);
    m.read();
    await waitUntil(() => m.answers.length === N + 1, 'every answer', { timeoutMs: 120_000 });
    const ids = new Set(m.answers.map((a) => a.id));
    for (let i = 0; i <= N; i++) expect(ids.has(i)).toBe(true);
    expect(JSON.stringify(m.answers.find((a) => a.id === N))).toContain('(more: memory_list with before: ');
    m.child.stdin.end();
    expect(await m.exit).toEqual({ code: 0, signal: null });
    expect(m.stderr()).toBe('');
  });
});

describe('aish mcp: a batch on stdin, then end of input', () => {
  it('every call is answered and every write is whole before aish exits 0, past the number it works on at once', async () => {
    const m = rawMcp({ items: 5, config: "{ memory: { agents: 'trust' } }" });
    m.read();
    const N = 300;
    const args = (i: number) =>
      i % 3 === 0
        ? call(i, 'memory_propose', { kind: 'fact', content: `batch fact ${i}` })
        : call(i, i % 3 === 1 ? 'memory_list' : 'memory_search', i % 3 === 1 ? {} : { query: 'item' });
    for (let i = 1; i <= N; i++) m.send(args(i));
    m.child.stdin.end();
    expect(await m.exit).toEqual({ code: 0, signal: null });
    expect(new Set(m.answers.map((a) => a.id)).size).toBe(N + 1);
    for (const a of m.answers) expect(a.result).toBeDefined();
    expect(existsSync(join(m.data, 'memory.jsonl.lock'))).toBe(false);
    const text = readFileSync(join(m.data, 'memory.jsonl'), 'utf8');
    const facts = text.split('\n').filter((l) => l.includes('batch fact'));
    expect(facts).toHaveLength(N / 3);
    for (const l of facts) expect(() => JSON.parse(l) as unknown).not.toThrow();
    expect(m.stderr()).toBe('');
  });
});

describe('aish mcp: SIGTERM while writing', () => {
  it('the calls under way finish whole, the lock is released, and aish exits 143', async () => {
    const m = rawMcp({ config: "{ memory: { agents: 'trust' } }" });
    m.read();
    const N = 400;
    for (let i = 1; i <= N; i++) m.send(call(i, 'memory_propose', { kind: 'fact', content: `fact number ${i} under sigterm` }));
    // Some written, more under way.
    await waitUntil(() => m.answers.length > 20, 'the first answers', { timeoutMs: 30_000 });
    m.child.kill('SIGTERM');
    const exit = await m.exit;
    expect(exit).toEqual({ code: 143, signal: null });
    expect(existsSync(join(m.data, 'memory.jsonl.lock'))).toBe(false);
    const text = readFileSync(join(m.data, 'memory.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const items = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; content?: string })
      .filter((it) => it.content?.startsWith('fact number'));
    expect(new Set(items.map((it) => it.id)).size).toBe(items.length);
    // Every call answered "remembered" is in the file.
    const answered = m.answers.filter((a) => /remembered as/.test(JSON.stringify(a.result ?? '')));
    expect(items.length).toBeGreaterThanOrEqual(answered.length);
    expect(m.stderr()).not.toMatch(/\n\s+at /);
  });
});

describe('aish mcp: calls the client cancels', () => {
  it('a cancelled call no longer counts against the 64 under way: 200 cancelled, the next call is answered', async () => {
    const m = rawMcp({ items: 5 });
    m.read();
    for (let i = 1; i <= 200; i++) {
      m.send(call(i, 'memory_recall', { message: `item ${i}` }));
      m.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i, reason: 'changed my mind' } });
    }
    m.send(call(1000, 'memory_list', {}));
    await waitUntil(() => m.answers.some((a) => a.id === 1000), 'the answer after 200 cancelled calls', { timeoutMs: 30_000 });
    // One that finished before its cancel was read may still be answered (the spec allows it); most are not.
    expect(m.answers.filter((a) => typeof a.id === 'number' && a.id >= 1 && a.id <= 200).length).toBeLessThan(100);
  });
});
