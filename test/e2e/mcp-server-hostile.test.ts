/**
 * `aish mcp` (the built CLI) fed what a broken or hostile client sends: every request is answered
 * (a client never waits for ever), a malformed or over-long line does not end the server, and each
 * problem is one warning line on stderr, never a stack.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { callTool, connectMcp } from '../helpers/mcp-client';
import { BIN } from '../helpers/paths';
import { isolatedEnv } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

/** A request not answered by then is a client left waiting for ever. */
const ANSWER_MS = 15_000;

interface Raw {
  child: ChildProcessWithoutNullStreams;
  data: string;
  send: (line: string | Buffer) => void;
  /** The answer whose id is `id` (null: the next answer without one). */
  answer: (id: number | string | null) => Promise<Record<string, unknown>>;
  stderr: () => string;
}

/** `aish mcp` on raw stdio, after the handshake. */
async function rawMcp(): Promise<Raw> {
  const home = tmpDir();
  const data = join(home, 'data');
  mkdirSync(data);
  const child = spawn(process.execPath, [BIN, '--data-dir', data, 'mcp'], { env: isolatedEnv(home), cwd: home, stdio: 'pipe' });
  onTestFinished(() => void child.kill('SIGKILL'));
  child.stdin.on('error', () => {});
  let out = '';
  let err = '';
  const answers: Array<Record<string, unknown>> = [];
  const waiting: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      answers.push(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
      out = out.slice(nl + 1);
    }
    for (const w of waiting.splice(0)) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const send = (line: string | Buffer) => child.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
  const answer = (id: number | string | null) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${id} within ${ANSWER_MS / 1000} s`)), ANSWER_MS);
      const look = () => {
        const i = answers.findIndex((a) => a.id === id);
        if (i >= 0) {
          clearTimeout(timer);
          return resolve(answers.splice(i, 1)[0]!);
        }
        if (child.exitCode !== null) return reject(new Error(`aish mcp exited (${child.exitCode}) without answering ${id}: ${err}`));
        waiting.push(look);
      };
      child.once('exit', () => waiting.length && look());
      look();
    });
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
  await answer(0);
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { child, data, send, answer, stderr: () => err };
}

const listCall = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'memory_list', arguments: {} } });

describe('aish mcp: malformed messages', () => {
  it('each gets an error answer (with its id when it has one) and the server goes on', async () => {
    const m = await rawMcp();
    m.send('this is not JSON');
    expect(await m.answer(null)).toMatchObject({ error: { code: -32700 } });
    m.send('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":null}');
    expect(await m.answer(7)).toMatchObject({ error: { code: -32600 } });
    m.send('{"jsonrpc":"2.0","id":"x-8","method":"tools/call","params":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}');
    expect(await m.answer('x-8')).toMatchObject({ error: { code: -32600 } });
    m.send('[1,2,3]');
    expect(await m.answer(null)).toMatchObject({ error: { code: -32600 } });
    m.send(Buffer.from([0xff, 0xfe, 0x00, 0x7b]));
    expect(await m.answer(null)).toMatchObject({ error: { code: -32700 } });
    // A notification that is not valid is reported, not answered.
    m.send('{"jsonrpc":"2.0","method":42}');
    m.send(listCall(9));
    expect(await m.answer(9)).toMatchObject({ result: { content: [{ text: 'no memory items apply here' }] } });
    const warnings = m.stderr().trimEnd().split('\n');
    expect(warnings).toHaveLength(6);
    for (const w of warnings) expect(w).toMatch(/^aish mcp: warning: line \d+ from the client/);
    expect(m.stderr()).not.toMatch(/\n\s+at /);
  });

  it('a line over 16 MiB is read to its end, refused with its id, and the next call is answered', async () => {
    const m = await rawMcp();
    const big = 'y'.repeat(20 * 1024 * 1024);
    // The SDK's client writes the id last.
    m.send(`{"method":"tools/call","params":{"name":"memory_recall","arguments":{"message":"${big}"}},"jsonrpc":"2.0","id":3}`);
    m.send(listCall(4));
    expect(await m.answer(3)).toMatchObject({ error: { code: -32600, message: expect.stringContaining('over 16 MiB') as unknown } });
    expect(await m.answer(4)).toMatchObject({ result: {} });
    expect(m.child.exitCode).toBeNull();
    expect(m.stderr()).toBe(
      'aish mcp: warning: line 3 from the client: message over 16 MiB, the most aish mcp reads in one line — send less\n',
    );
  });
});

describe('aish mcp: huge arguments from the SDK client', () => {
  it('a 20 MB message is refused as an error, and the connection stays up', async () => {
    const home = tmpDir();
    const client = await connectMcp(home, ['--data-dir', join(home, 'data')], home);
    await expect(client.callTool({ name: 'memory_recall', arguments: { message: 'z'.repeat(20_000_000) } })).rejects.toThrow(/over 16 MiB/);
    const r = await callTool(client, 'memory_recall', { message: 'z'.repeat(1_000_000) });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('[recall] 0 items');
  });
});

describe('aish mcp: a client that goes away mid-call', () => {
  it('the server ends on its own (exit 0) and the inbox holds only whole lines', async () => {
    const m = await rawMcp();
    for (let i = 0; i < 20; i++)
      m.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 100 + i,
          method: 'tools/call',
          params: { name: 'memory_propose', arguments: { kind: 'fact', content: `left mid-call ${i}` } },
        }),
      );
    m.child.stdin.destroy();
    m.child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => m.child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(m.stderr()).not.toMatch(/\n\s+at /);
    const inbox = join(m.data, 'inbox.jsonl');
    const text = existsSync(inbox) ? readFileSync(inbox, 'utf8') : '';
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(text === '' || text.endsWith('\n')).toBe(true);
  });
});

describe('aish mcp: arguments of the wrong shape', () => {
  it('each is refused in one line: null arguments, numbers as text, lists, relative paths, unknown tools', async () => {
    const m = await rawMcp();
    m.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_list","arguments":null}}');
    const a1 = await m.answer(1);
    expect(a1).toMatchObject({
      error: { code: -32602, message: 'Invalid params: params.arguments: Invalid input: expected record, received null' },
    });
    const tool = async (id: number, name: string, args: object) => {
      m.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }));
      const a = (await m.answer(id)) as { result: { isError?: boolean; content: Array<{ text: string }> } };
      expect(a.result.isError).toBe(true);
      return a.result.content[0]!.text;
    };
    expect(await tool(2, 'memory_list', { limit: '5' })).toBe('limit must be a whole number ≥ 1');
    expect(await tool(3, 'memory_list', { limit: [5] })).toBe('limit must be a whole number ≥ 1');
    expect(await tool(4, 'memory_search', { query: { $ne: '' } })).toBe('query must be non-empty text');
    expect(await tool(5, 'memory_list', { cwd: '../..' })).toBe('cwd must be an absolute path');
    expect(await tool(6, 'memory_forget_request', { id: '1', reason: 'x' })).toBe('id must be a whole number ≥ 1 (the N of #N)');
    expect(await tool(7, 'memory_list', { before: -1 })).toBe('before must be a whole number ≥ 1');
    expect(await tool(8, 'nope\u001b[31m', {})).toBe('no tool nope[31m');
    expect(m.stderr()).toBe('');
  });
});

describe('aish mcp: a memory too big for one answer', () => {
  it('memory_list pages through 3,000 items: each answer bounded, every shareable item once, none private', async () => {
    const home = tmpDir();
    const data = join(home, 'data');
    mkdirSync(data);
    const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
    for (let i = 1; i <= 3000; i++)
      lines.push(
        JSON.stringify({
          id: i,
          ts: '2026-01-01T00:00:00.000Z',
          kind: 'fact',
          content: `note ${i}`,
          ...(i % 10 === 0 && { private: true }),
        }),
      );
    writeFileSync(join(data, 'memory.jsonl'), lines.join('\n') + '\n');
    const client = await connectMcp(home, ['--data-dir', data], home);
    const seen: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < 100; page++) {
      const r = await callTool(client, 'memory_list', { limit: 200, ...(before !== undefined && { before }) });
      expect(r.isError).toBe(false);
      expect(r.text.length).toBeLessThanOrEqual(8000);
      expect(r.text).not.toContain('cut at');
      seen.push(...[...r.text.matchAll(/^- #(\d+) /gm)].map((x) => Number(x[1])));
      const next = /^\(more: memory_list with before: (\d+)\)$/m.exec(r.text);
      if (!next) break;
      before = Number(next[1]);
    }
    expect(seen.length).toBe(2700);
    expect(new Set(seen).size).toBe(2700);
    expect(seen.some((id) => id % 10 === 0)).toBe(false);
  });
});

describe('aish mcp: secrets in items written by hand', () => {
  it('never leave: list, search and recall show them redacted', async () => {
    const home = tmpDir();
    const data = join(home, 'data');
    mkdirSync(data);
    const key = 'sk-proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk';
    const gh = 'ghp_' + 'abcdefghijklmnopqrstuvwxyz0123456789';
    const items = [`deploy key is ${key} for staging`, `the bot token is ${gh} for the staging repo`];
    writeFileSync(
      join(data, 'memory.jsonl'),
      [
        '{"meta":{"format":"aish-memory","version":1}}',
        ...items.map((content, i) => JSON.stringify({ id: i + 1, ts: '2026-01-01T00:00:00.000Z', kind: 'fact', content })),
      ].join('\n') + '\n',
      { mode: 0o600 },
    );
    const client = await connectMcp(home, ['--data-dir', data], home);
    const answers = [
      await callTool(client, 'memory_list', {}),
      await callTool(client, 'memory_search', { query: 'staging deploy key' }),
      await callTool(client, 'memory_recall', { message: 'what is the deploy key for staging' }),
    ];
    for (const r of answers) {
      expect(r.isError).toBe(false);
      expect(r.text).toContain('[redacted]');
      expect(r.text).not.toContain(key);
      expect(r.text).not.toContain(gh);
    }
  });
});
