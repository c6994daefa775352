/**
 * McpManager (the real MCP SDK client, real processes) against a configured server that misbehaves
 * (test/fixtures/mcp/flood-server.mjs): thousands of tools, names with escapes or that collide,
 * huge or recursive schemas, a 100 MB result, endless progress, garbage on stdout, a flood on
 * stderr, a grandchild. aish stays usable, what reaches the model stays bounded, nothing is left.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpManager, type ServerStatus } from '../../src/tools/mcp/manager';
import { McpTool } from '../../src/tools/mcp-tool';
import { ROOT } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const FLOOD = join(ROOT, 'test', 'fixtures', 'mcp', 'flood-server.mjs');

async function manager(mode: string, arg = '0', opts: { callTimeoutMs?: number } = {}) {
  const logDir = tmpDir();
  const m = new McpManager({ flood: { command: process.execPath, args: [FLOOD, mode, arg] } }, { logDir, baseDir: logDir, ...opts });
  onTestFinished(() => m.close());
  m.start();
  await m.settled(30_000);
  const status = (): ServerStatus => m.statuses()[0]!;
  return { m, status, log: join(logDir, 'mcp-flood.log') };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a configured MCP server that floods aish', () => {
  it('5,000 tools and odd ones: a bounded, valid, neutral set is offered, and the rest is said', async () => {
    const { m, status } = await manager('tools', '5000');
    expect(status().state).toBe('ready');
    const tools = m.tools();
    // The model's API refuses more than 128 tools in one request: a server cannot crowd out the rest.
    expect(tools.length).toBeLessThanOrEqual(100);
    expect(status().tools).toBe(tools.length);
    expect(status().note).toMatch(/^offers 5,008 tools; the first \d+ are used/);
    const specs = tools.map((t) => new McpTool(t, () => Promise.resolve({ text: '', isError: false })).spec);
    const names = specs.map((s) => s.function.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const all = JSON.stringify(specs);
    expect(all.length).toBeLessThan(256 * 1024);
  });

  it('the odd tools alone: escapes gone, names unique, no huge or too-deep schema offered', async () => {
    const { m, status } = await manager('tools', '0');
    expect(status().state).toBe('ready');
    const tools = m.tools();
    const byTool = new Map(tools.map((t) => [t.tool, t]));
    const specs = tools.map((t) => new McpTool(t, () => Promise.resolve({ text: '', isError: false })).spec);
    const all = JSON.stringify(specs);
    // Controls (terminal escapes) never reach the model nor the `:tools` listing.
    expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(JSON.stringify(tools))).toBe(false);
    expect(all).not.toContain('<|im_start|>');
    expect(all.length).toBeLessThan(64 * 1024);
    expect(byTool.get('huge-description')!.description.length).toBeLessThanOrEqual(1024);
    // A schema too big or too deep to neutralise is not offered; the tool is named in the note.
    expect(byTool.has('huge-schema')).toBe(false);
    expect(byTool.has('deep')).toBe(false);
    expect(status().note).toMatch(/huge-schema/);
    // A $ref to itself is JSON like any other: passed on as it is.
    expect(byTool.get('recursive')).toBeDefined();
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['flood__a_b', 'flood__a-b']));
  });

  it('a 100 MB result: the call fails with one clear line, and the server stays up for the next', async () => {
    const { m, status } = await manager('big', '100');
    const r = await m.call('flood__t', {});
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^MCP error: .*over 10 MB/);
    expect(r.text).not.toContain('\n');
    expect(status().state).toBe('ready');
    // 1 MB from a tool marked read-only (it runs unasked): the model gets 16 KB of it.
    const small = await manager('big', '1');
    expect((await small.m.call('flood__t', {})).text.length).toBe(1024 * 1024);
    const info = small.m.tools()[0]!;
    expect(info.readOnlyHint).toBe(true);
    const call = await new McpTool(info, (n, a, sig) => small.m.call(n, a, sig)).prepare('{}');
    if ('error' in call) throw new Error(call.error);
    expect(call.gate).toMatchObject({ kind: 'mcp', readOnly: true });
    const out = await call.run({ cwd: '/', signal: new AbortController().signal });
    expect(out.content.length).toBeLessThan(17 * 1024);
  });

  it('endless progress: the call still ends (at 10 × the call timeout), the server stays usable', async () => {
    const { m } = await manager('endless', '0', { callTimeoutMs: 300 });
    const r = await m.call('flood__t', {});
    expect(r).toEqual({
      isError: true,
      text: 'MCP tool "flood__t" timed out after 3 s in all (progress keeps a call going that long at most)',
    });
    expect((await m.call('flood__t', {})).text).toMatch(/timed out/);
  });

  it('garbage on stdout between answers is skipped; the call is answered', async () => {
    const { m, status, log } = await manager('garbage');
    expect(await m.call('flood__t', {})).toEqual({ isError: false, text: 'ok' });
    expect(status().state).toBe('ready');
    expect(readFileSync(log, 'utf8')).toMatch(/ignored stdout line/);
  });

  it('50 MB on stderr: the log stays small, and the server works', async () => {
    const { m, log } = await manager('stderr', '50');
    expect(await m.call('flood__t', {})).toEqual({ isError: false, text: 'ok' });
    // The server wrote all 50 MB before it answered: stderr was read through, not kept.
    await waitUntil(() => readFileSync(log, 'utf8').includes('[aish] stderr over 1 MB'), 'the note in the log');
    await m.close();
    expect(statSync(log).size).toBeLessThan(2 * 1024 * 1024);
  });

  it('a grandchild the server started is gone when aish closes the servers', async () => {
    const { m } = await manager('child');
    const r = await m.call('flood__t', {});
    const pid = Number(/child (\d+)/.exec(r.text)![1]);
    expect(alive(pid)).toBe(true);
    await m.close();
    await waitUntil(() => !alive(pid), 'the grandchild to be gone', { timeoutMs: 10_000 });
  });
});
