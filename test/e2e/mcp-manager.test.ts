/**
 * McpManager against the real @modelcontextprotocol/server-everything over stdio, plus the edge
 * cases (missing command, early exit, hang, death mid-call) with tiny `node -e` "servers".
 */
import { spawn } from 'node:child_process';
import { bundleScript } from '../helpers/bundle';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager, type ServerStatus } from '../../src/tools/mcp/manager';
import { ROOT } from '../helpers/paths';

const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const everything = (extra: object = {}) => ({ command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra });
const node = (code: string, ...args: string[]) => ({ command: process.execPath, args: ['-e', code, ...args] });

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'aish-mcp-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
};
async function gone(pid: number, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}
/** Fields of /proc/<pid>/stat after the parenthesised command: [state, ppid, pgrp, session, …]. */
const stat = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
const status = (m: McpManager, name: string): ServerStatus => m.statuses().find((s) => s.name === name)!;

describe('McpManager with server-everything', () => {
  let m: McpManager;
  let base: string;
  let logDir: string;
  const changes: ServerStatus[] = [];
  const secret = 'AISH_MCP_SECRET_TEST';

  beforeAll(() => {
    base = tmp();
    logDir = join(base, 'logs', 'nested');
    mkdirSync(join(base, 'sub'));
    process.env[secret] = 'leak';
    m = new McpManager(
      {
        everything: everything({ cwd: 'sub', env: { AISH_MCP_TEST: 'yes' } }),
        'my server': everything(),
        // Prints a non-JSON line on stdout first, as careless servers do.
        noisy: node(`console.log('hello, not json'); import(${JSON.stringify(pathToFileURL(EVERYTHING).href)})`),
        missing: { command: 'aish-no-such-command-xyz' },
        quitter: node('process.exit(3)'),
        nodir: everything({ cwd: 'does/not/exist' }),
        off: { ...everything(), disabled: true },
      },
      { logDir, baseDir: base, onChange: (s) => changes.push(s) },
    );
    m.start(); // the secret stays set until the servers are spawned (see afterAll)
  });
  afterAll(async () => {
    delete process.env[secret];
    await m.close();
  });

  it('start() returns at once; settled() waits for the outcome', async () => {
    expect(status(m, 'everything').state).toBe('starting');
    expect(m.tools()).toEqual([]);
    await m.settled(20_000);
    expect(m.statuses().map((s) => [s.name, s.state])).toEqual([
      ['everything', 'ready'],
      ['my server', 'ready'],
      ['noisy', 'ready'],
      ['missing', 'failed'],
      ['quitter', 'failed'],
      ['nodir', 'failed'],
      ['off', 'disabled'],
    ]);
  });

  it('lists the tools as server__tool with their schemas and hints', () => {
    const tools = m.tools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__get-sum');
    expect(names).toContain('my_server__echo');
    // The task-only tool cannot be called with tools/call, so it is not offered.
    expect(names).not.toContain('everything__simulate-research-query');
    expect(tools.filter((t) => t.server === 'everything')).toHaveLength(12);
    expect(status(m, 'everything').tools).toBe(12);
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const sum = tools.find((t) => t.name === 'everything__get-sum')!;
    expect(sum).toMatchObject({
      server: 'everything',
      tool: 'get-sum',
      description: 'Returns the sum of two numbers',
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(sum.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(tools.find((t) => t.name === 'my_server__echo')).toMatchObject({ server: 'my server', tool: 'echo' });
  });

  it('calls tools', async () => {
    const sum = await m.call('everything__get-sum', { a: 20, b: 22 });
    expect(sum.isError).toBe(false);
    expect(sum.text).toContain('42');
    const echo = await m.call('my_server__echo', { message: 'héllo 🐚 "x"\nline2' });
    expect(echo).toEqual({ isError: false, text: 'Echo: héllo 🐚 "x"\nline2' });
    const img = await m.call('everything__get-tiny-image', {});
    expect(img.text).toMatch(/\[image\/png, \d+ bytes\]/);
  });

  it('turns unknown tools, bad arguments and dead servers into isError results', async () => {
    expect((await m.call('everything__nope', {})).isError).toBe(true);
    const bad = await m.call('everything__get-sum', { a: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/expected number/);
    expect((await m.call('everything__echo', [1])).isError).toBe(true);
    const dead = await m.call('quitter__anything', {});
    expect(dead).toMatchObject({ isError: true });
    expect(dead.text).toContain('exited during start (code 3)');
  });

  it('reports start failures once, with one-line errors', () => {
    expect(status(m, 'missing').error).toBe('command not found: aish-no-such-command-xyz');
    expect(status(m, 'quitter').error).toBe('exited during start (code 3)');
    expect(status(m, 'nodir').error).toBe(`working directory not found: ${join(base, 'does/not/exist')}`);
    for (const name of ['missing', 'quitter', 'nodir']) {
      expect(changes.filter((c) => c.name === name).map((c) => c.state)).toEqual(['failed']);
    }
    expect(changes.filter((c) => c.name === 'everything' && c.state === 'ready').length).toBeGreaterThanOrEqual(1);
    expect(status(m, 'off').pid).toBeUndefined();
    expect(changes.some((c) => c.name === 'off')).toBe(false);
  });

  it('runs the server in its own session and process group, in the resolved cwd', () => {
    const pid = status(m, 'everything').pid!;
    expect(pid).toBeGreaterThan(0);
    const [, , pgrp, session] = stat(pid);
    const [, , ourPgrp, ourSession] = stat(process.pid);
    expect(Number(pgrp)).toBe(pid);
    expect(Number(session)).toBe(pid);
    expect(pgrp).not.toBe(ourPgrp);
    expect(session).not.toBe(ourSession);
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(join(base, 'sub'));
  });

  it('passes only the whitelisted environment plus the configured env', async () => {
    const out = await m.call('everything__get-env', {});
    const env = JSON.parse(out.text) as Record<string, string>;
    expect(env.AISH_MCP_TEST).toBe('yes');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env[secret]).toBeUndefined();
    expect(Object.keys(env).every((k) => ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'AISH_MCP_TEST'].includes(k))).toBe(true);
  });

  it('appends stderr to a private log file', () => {
    const log = status(m, 'everything').logPath;
    expect(log.startsWith(logDir)).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain('Starting default (STDIO) server');
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(logDir).mode & 0o777).toBe(0o700);
    expect(status(m, 'my server').logPath).not.toBe(log);
    expect(readFileSync(status(m, 'noisy').logPath, 'utf8')).toContain('ignored stdout line');
  });

  it('cancels a long-running call on abort and stays usable', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300); // once the call is under way
    // An hour-long operation: the call can only come back (before the test times out) if the abort ends it.
    const out = await m.call('everything__trigger-long-running-operation', { duration: 3600, steps: 3600 }, ac.signal);
    expect(out).toEqual({ isError: true, text: 'cancelled' });
    expect((await m.call('everything__get-sum', { a: 1, b: 2 })).text).toContain('3');
  });
});

describe('McpManager lifecycle', () => {
  it('a server that dies mid-call fails the call and drops its tools', async () => {
    const changes: ServerStatus[] = [];
    const m = new McpManager({ ev: everything() }, { logDir: tmp(), baseDir: tmp(), onChange: (s) => changes.push(s) });
    try {
      m.start();
      await m.settled(20_000);
      const pid = status(m, 'ev').pid!;
      const pending = m.call('ev__trigger-long-running-operation', { duration: 30, steps: 30 });
      setTimeout(() => process.kill(pid, 'SIGKILL'), 300);
      const out = await pending;
      expect(out.isError).toBe(true);
      expect(out.text).toBe('MCP server "ev" exited during the call (signal SIGKILL)');
      expect(status(m, 'ev')).toMatchObject({ state: 'failed', error: 'exited (signal SIGKILL)', tools: 0 });
      expect(m.tools()).toEqual([]);
      expect(changes.at(-1)).toMatchObject({ name: 'ev', state: 'failed' });
      const again = await m.call('ev__get-sum', { a: 1, b: 1 });
      expect(again.isError).toBe(true);
      expect(again.text).toContain('failed');
    } finally {
      await m.close();
    }
  });

  it('close() kills the server and is idempotent', async () => {
    const m = new McpManager({ ev: everything() }, { logDir: tmp(), baseDir: tmp() });
    m.start();
    await m.settled(20_000);
    const pid = status(m, 'ev').pid!;
    expect(alive(pid)).toBe(true);
    await Promise.all([m.close(), m.close()]);
    expect(await gone(pid)).toBe(true);
    expect(status(m, 'ev').state).toBe('closed');
    expect(m.tools()).toEqual([]);
    expect((await m.call('ev__echo', { message: 'x' })).isError).toBe(true);
  });

  it('a server that never answers times out, and its whole group is killed (SIGKILL after SIGTERM)', async () => {
    const dir = tmp();
    const pidFile = join(dir, 'grandchild.pid');
    // The "server" leaves a grandchild that ignores SIGTERM in its group.
    const code = `const c=require('child_process').spawn(process.execPath,['-e','process.on("SIGTERM",()=>{});setInterval(()=>{},1e3)'],{stdio:'ignore'});require('fs').writeFileSync(process.argv[1],String(c.pid));setInterval(()=>{},1e3)`;
    const m = new McpManager({ hang: node(code, pidFile) }, { logDir: dir, baseDir: dir, startTimeoutMs: 800 });
    m.start();
    await m.settled(10_000);
    expect(status(m, 'hang')).toMatchObject({ state: 'failed', error: 'did not start within 0.8 s' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(await gone(grandchild, 5000)).toBe(true);
    await m.close();
  });

  it('SIGINT to the manager process group does not reach the server', async () => {
    const dir = tmp();
    const entry = join(dir, 'worker.ts');
    writeFileSync(
      entry,
      `import { McpManager } from ${JSON.stringify(join(ROOT, 'src/tools/mcp/manager.ts'))};
       const m = new McpManager({ ev: { command: process.execPath, args: [${JSON.stringify(EVERYTHING)}, 'stdio'] } }, { logDir: ${JSON.stringify(dir)}, baseDir: ${JSON.stringify(dir)} });
       m.start();
       await m.settled(20000);
       console.log(JSON.stringify(m.statuses()[0]));
       setInterval(() => {}, 1000);`,
    );
    const outfile = bundleScript(entry, join(dir, 'worker.mjs'));
    // Detached: the worker leads its own group, standing in for aish's group (shell, `!cmd` children).
    const worker = spawn(process.execPath, [outfile], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    let serverPid = 0;
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let buf = '';
        worker.stdout.setEncoding('utf8').on('data', (d: string) => {
          buf += d;
          if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
        });
        worker.on('exit', () => reject(new Error('worker exited')));
      });
      const st = JSON.parse(line) as ServerStatus;
      expect(st.state).toBe('ready');
      serverPid = st.pid!;
      expect(Number(stat(serverPid)[2])).not.toBe(worker.pid);
      const exited = new Promise<NodeJS.Signals | null>((r) => worker.on('exit', (_c, sig) => r(sig)));
      process.kill(-worker.pid!, 'SIGINT');
      expect(await exited).toBe('SIGINT');
      // server-everything exits on SIGINT, so still being alive means the signal never reached it.
      await new Promise((r) => setTimeout(r, 300));
      expect(alive(serverPid)).toBe(true);
    } finally {
      try {
        process.kill(-worker.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      if (serverPid) {
        try {
          process.kill(-serverPid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
  });
});
