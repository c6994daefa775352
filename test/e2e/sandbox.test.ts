/**
 * Real commands through runShell in the real sandbox (bubblewrap). Without a working bubblewrap
 * every test here is reported as skipped, with the reason in its name.
 */
import { execFileSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { detectSandbox, findSandbox, type Sandbox } from '../../src/tools/sandbox';
import { runShell, type ShellOptions } from '../../src/tools/shell';
import { stepEnv } from '../../src/tools/step-env';
import { jailRequired } from '../helpers/jail';
import { ROOT } from '../helpers/paths';
import { waitUntil } from '../helpers/wait';

const found = process.platform === 'linux' ? await detectSandbox({ mode: 'auto', network: false }) : null;
const sandbox = found?.sandbox ?? null;
const withNet = sandbox ? await findSandbox({ mode: 'auto', network: true }) : null;
const reason = !found ? 'these tests run bubblewrap, on Linux only' : found.why;
const skipped = reason ? ` (SKIPPED: ${reason})` : '';
const runs = (file: string, args: string[]) => {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasCurl = runs('curl', ['--version']);
// To see namespaces denied: root runs the check as nobody, nested in a sandbox that forbids them.
const canDeny =
  process.getuid?.() === 0 &&
  runs('runuser', ['--help']) &&
  runs('bwrap', ['--unshare-user', '--disable-userns', '--ro-bind', '/', '/', 'true']);

/**
 * HOME with the working directory inside it, as for a user. Not under /tmp: the sandbox's /tmp is
 * a private tmpfs, which would hide this HOME instead of showing it read-only.
 */
function place(): { home: string; cwd: string; env: NodeJS.ProcessEnv } {
  const base = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'aish-sandbox-test-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const home = join(base, 'home');
  const cwd = join(home, 'project');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, 'notes.txt'), 'readable\n');
  return { home, cwd, env: { ...process.env, HOME: home, SHELL: '/bin/sh' } };
}

const titles: string[] = [];
/** A test that needs the sandbox: skipped by name, with the reason in its title, when there is none. */
function sit(title: string, fn: () => Promise<void>, also: { skip?: boolean; why?: string } = {}): void {
  titles.push(title);
  // In CI with bubblewrap installed, a sandbox that does not start fails every test here.
  const run = sandbox ? fn : () => Promise.reject(new Error(`bubblewrap is installed but aish found no sandbox: ${reason}`));
  it.skipIf((!sandbox && !jailRequired) || also.skip)(`${title}${skipped || (also.skip ? ` (SKIPPED: ${also.why})` : '')}`, run);
}

const inBox = (command: string, opts: ShellOptions & { sandbox?: Sandbox }) =>
  runShell(command, { sandbox: sandbox!, timeoutMs: 30_000, ...opts });

/** pids of live processes whose command line is `cmd` (not the shell or bwrap that name it). */
function processesWith(cmd: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ').trim() === cmd) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe(`the sandbox${skipped}`, () => {
  let server: Server;
  let url = '';
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('hello from the host');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  sit('cannot write outside the working directory: touch ~/x fails and leaves no file', async () => {
    const { home, cwd, env } = place();
    const r = await inBox('touch ~/x', { cwd, env });
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toMatch(/Read-only file system/);
    expect(existsSync(join(home, 'x'))).toBe(false);
    const sibling = await inBox('echo no > ../sibling.txt', { cwd, env });
    expect(sibling.exitCode).not.toBe(0);
    expect(existsSync(join(home, 'sibling.txt'))).toBe(false);
  });

  sit('even root cannot remount / writable inside (capabilities dropped)', async () => {
    const { home, cwd, env } = place();
    const r = await inBox('mount -o remount,rw / 2>&1; touch ~/x', { cwd, env });
    expect(r.exitCode).not.toBe(0);
    expect(existsSync(join(home, 'x'))).toBe(false);
  });

  sit('writes in the working directory land there; HOME is readable; node and git run', async () => {
    const { cwd, env } = place();
    const r = await inBox(
      `echo made > made.txt && mkdir -p sub && touch sub/a && cat ~/notes.txt && "${process.execPath}" -e "console.log('node ok')" && git --version`,
      { cwd, env },
    );
    expect(r.output).toMatch(/^readable\nnode ok\ngit version /);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(cwd, 'made.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(join(cwd, 'sub', 'a'))).toBe(true);
  });

  sit('/tmp is private: writing there works but lands nowhere on the host, and TMPDIR=/tmp', async () => {
    const { cwd, env } = place();
    const name = `aish-sandbox-${randomBytes(6).toString('hex')}`;
    const r = await inBox(`echo secret > /tmp/${name} && cat /tmp/${name} && echo "TMPDIR=$TMPDIR"`, {
      cwd,
      env: { ...env, TMPDIR: '/somewhere/else' },
    });
    expect(r.output).toBe('secret\nTMPDIR=/tmp\n');
    expect(r.exitCode).toBe(0);
    expect(existsSync(join('/tmp', name))).toBe(false);
    const again = await inBox(`test -e /tmp/${name}`, { cwd, env });
    expect(again.exitCode).toBe(1); // each command starts with an empty /tmp
  });

  const fetchCmd = () =>
    `"${process.execPath}" -e "fetch('${url}').then(r => r.text()).then(t => console.log('GOT ' + t), e => { console.log('FAILED ' + (e.cause?.code ?? e.message)); process.exit(3); })"`;

  sit("network off: node's fetch to a server on the host's loopback fails", async () => {
    const { cwd, env } = place();
    const before = hits;
    const r = await inBox(fetchCmd(), { cwd, env });
    expect(r.output).toMatch(/^FAILED ECONNREFUSED/);
    expect(r.exitCode).toBe(3);
    expect(hits).toBe(before);
  });

  sit(
    "network off: curl to a server on the host's loopback fails",
    async () => {
      const { cwd, env } = place();
      const before = hits;
      const r = await inBox(`curl -sS --max-time 5 ${url}`, { cwd, env });
      expect(r.exitCode).not.toBe(0);
      expect(r.output).not.toContain('hello from the host');
      expect(hits).toBe(before);
    },
    { skip: !hasCurl, why: 'no curl here' },
  );

  sit(
    'network allowed (sandboxNetwork): the same fetch gets through',
    async () => {
      const { cwd, env } = place();
      expect(withNet!.network).toBe(true);
      const r = await inBox(fetchCmd(), { cwd, env, sandbox: withNet! });
      expect(r.output).toBe('GOT hello from the host\n');
      expect(r.exitCode).toBe(0);
      const touched = await inBox('touch ~/x', { cwd, env, sandbox: withNet! });
      expect(touched.exitCode).not.toBe(0); // still read-only
    },
    { skip: !withNet, why: 'no sandbox with the network allowed' },
  );

  const sleeps = () => {
    // Unique durations mark this test's processes.
    const n = 100_000 + Math.floor(Math.random() * 800_000);
    return { command: `sleep ${n} & (setsid sleep ${n + 1} &); sleep ${n + 2}`, marks: [`sleep ${n}`, `sleep ${n + 1}`, `sleep ${n + 2}`] };
  };

  sit("cancelling kills everything inside, background and setsid'd processes too", async () => {
    const { cwd, env } = place();
    const { command, marks } = sleeps();
    const ac = new AbortController();
    const run = inBox(command, { cwd, env, signal: ac.signal });
    await waitUntil(() => marks.every((m) => processesWith(m).length > 0), 'the sleeps to start');
    const t0 = Date.now();
    ac.abort();
    const r = await run;
    expect(r.signal ?? r.exitCode).toBeTruthy();
    expect(Date.now() - t0).toBeLessThan(1400); // at once, not by runShell's SIGKILL after 1.5 s
    await waitUntil(() => marks.every((m) => processesWith(m).length === 0), 'no sleep left', { timeoutMs: 3000 });
  });

  sit('cancelling right at the start leaves nothing running either', async () => {
    const { cwd, env } = place();
    for (const delayMs of [0, 1, 3, 8]) {
      const { command, marks } = sleeps();
      const ac = new AbortController();
      const run = inBox(command, { cwd, env, signal: ac.signal });
      await new Promise((r) => setTimeout(r, delayMs));
      ac.abort();
      const r = await run; // returns: nothing inside holds the output pipes any more
      expect(r.signal ?? r.exitCode, `cancelled after ${delayMs} ms`).toBeTruthy(); // not a clean exit
      expect(r.timedOut).toBe(false);
      await waitUntil(() => marks.every((m) => processesWith(m).length === 0), `no sleep left (cancelled after ${delayMs} ms)`, {
        timeoutMs: 3000,
      });
    }
  });

  sit('a sandbox that cannot start says so in one line, and the command does not run', async () => {
    const { cwd, env } = place();
    const real = sandbox!;
    const broken: Sandbox = {
      name: real.name,
      network: real.network,
      // A mount bubblewrap must refuse, as it refuses when namespaces are denied: before the command.
      wrap(shell, command, dir) {
        const w = real.wrap(shell, command, dir);
        w.args.splice(w.args.indexOf('--'), 0, '--bind', '/nonexistent-aish-path', '/nonexistent-aish-path');
        return w;
      },
      startFailure: (code, output) => real.startFailure!(code, output),
    };
    const shown: string[] = [];
    const r = await runShell('touch ran.txt', { cwd, env, sandbox: broken, onOutput: (t) => shown.push(t) });
    expect(r.output).toMatch(
      /^aish: the sandbox \(bubblewrap [\d.]+\) could not start the command: Can't find source path \/nonexistent-aish-path: No such file or directory$/,
    );
    expect(r.exitCode).toBe(1);
    expect(shown.at(-1)).toBe(`${r.output}\n`);
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
  });

  sit(
    "where user namespaces are denied: detection gives bubblewrap's reason, and a run says so in one line",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aish-sandbox-deny-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      chmodSync(dir, 0o755);
      const src = (f: string) => JSON.stringify(join(ROOT, 'src', 'tools', f));
      buildSync({
        stdin: {
          contents: `import { detectSandbox } from ${src('sandbox')};
          import { bwrapSandbox } from ${src('sandbox/bwrap')};
          import { runShell } from ${src('shell')};
          const found = await detectSandbox({ mode: 'required', network: false });
          const run = await runShell('echo ran', { cwd: '/tmp', sandbox: bwrapSandbox('bwrap', 'bubblewrap', false) });
          console.log(JSON.stringify({ why: found.why, output: run.output }));`,
          resolveDir: ROOT,
          loader: 'ts',
        },
        outfile: join(dir, 'deny.mjs'),
        bundle: true,
        format: 'esm',
        platform: 'node',
        logLevel: 'error',
      });
      // nobody may not reach the node that runs the suite (CI's Node 24 lives under /root/.cache): a copy it can run.
      const node = join(dir, 'node');
      copyFileSync(process.execPath, node);
      chmodSync(node, 0o755);
      const out = execFileSync(
        'runuser',
        ['-u', 'nobody', '--', 'bwrap', '--dev-bind', '/', '/', '--unshare-user', '--disable-userns', '--', node, join(dir, 'deny.mjs')],
        { encoding: 'utf8', env: process.env },
      );
      const { why, output } = JSON.parse(out) as { why: string; output: string };
      expect(why).toMatch(/^bubblewrap does not work here \(user namespaces may be disabled\): bwrap: Creating new namespace failed/);
      expect(output).toMatch(/^aish: the sandbox \(bubblewrap\) could not start the command: Creating new namespace failed[^\n]*$/);
    },
    { skip: !canDeny, why: 'needs root, runuser and bubblewrap ≥ 0.8 to deny namespaces' },
  );

  sit("a repository's config and hooks in the working directory stay read-only (git would run what they name)", async () => {
    const { cwd, env } = place();
    execFileSync('git', ['init', '-q', cwd]);
    const config = readFileSync(join(cwd, '.git', 'config'), 'utf8');
    const r = await inBox('git config core.fsmonitor "touch pwned"; echo x > .git/hooks/pre-commit; echo ok > tracked.txt; echo exit $?', {
      cwd,
      env,
    });
    expect(r.output).toMatch(/exit 0/); // the working tree itself is writable
    expect(readFileSync(join(cwd, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(cwd, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(cwd, 'tracked.txt'), 'utf8')).toBe('ok\n');
  });

  sit("a command's own failure is left as it is", async () => {
    const { cwd, env } = place();
    const r = await inBox('echo "bwrap: said by the command" >&2; echo more; exit 1', { cwd, env });
    // stdout and stderr are two pipes: their lines may arrive in either order.
    expect(r.output.split('\n').filter(Boolean).sort()).toEqual(['bwrap: said by the command', 'more']);
    expect(r.exitCode).toBe(1);
    const other = await inBox('echo "bwrap: said by the command"; exit 2', { cwd, env });
    expect(other.output).toBe('bwrap: said by the command\n');
  });

  // The default reporter only counts skipped tests; name them, and why, where CI logs show it.
  if (reason) console.warn(`sandbox tests SKIPPED (${reason}):\n${titles.map((t) => `  - ${t}`).join('\n')}`);
});

describe('the sandbox when it is off', () => {
  it('findSandbox({mode: "off"}) is null, and says why', async () => {
    expect(await findSandbox({ mode: 'off', network: false })).toBeNull();
    expect((await detectSandbox({ mode: 'off', network: true })).why).toMatch(/off/);
  });
});

describe('git under the environment of an unasked step', () => {
  it('real git: a repository fsmonitor and credential helper give way to the overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aish-git-env-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-C', dir, 'config', 'core.fsmonitor', 'echo planted']);
    execFileSync('git', ['-C', dir, 'config', 'credential.helper', '!echo planted']);
    const env = stepEnv({ PATH: process.env.PATH, HOME: dir }, { passEnv: [], unasked: true });
    const get = (key: string) =>
      execFileSync('git', ['-C', dir, 'config', '--get-all', key], { env }).toString().split('\n').slice(0, -1).at(-1);
    expect(get('core.fsmonitor')).toBe('false');
    expect(get('credential.helper')).toBe('');
  });
});
