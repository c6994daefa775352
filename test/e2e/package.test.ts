/**
 * The package as a user gets it: `npm pack` (with its prepack/postpack hooks, in a copy of the
 * checkout so the suite's own dist/ and package.json are never touched), then `npm i -g` of the
 * tarball into an empty prefix, preferring npm's cache (`npm ci` filled it with every tarball; on a
 * fresh machine only the packages' metadata comes from the registry), then the installed
 * `aish`: --version, --help, -p against the test server, memory add/list, the bash grammar shipped
 * in dist/, and the REPL in a real terminal. CI runs this file on Node 24 with the suite and once
 * more on the machine's own node (.ci/run), where npm's only complaint may be the engines range.
 */
import { spawn as spawnPty } from '@lydell/node-pty';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ROOT } from '../helpers/paths';
import { stripAnsi } from '../helpers/pty';
import { isolatedEnv } from '../helpers/run-cli';

const fake = useFakeOpenAI();
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Node < 22 is below `engines`: npm warns about that (and only that) there, by design. */
const belowEngines = Number(process.versions.node.split('.')[0]) < 22;

let dir = '';
let prefix = '';
let installStderr = '';

/** npm and the installed aish run on this test's node, with no npm_* settings inherited from `npm test`. */
function env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, PATH: [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH].join(delimiter) };
  for (const k of Object.keys(e)) if (/^npm_/i.test(k)) delete e[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  return e;
}

/** Runs a command to its end, stdin empty (`-p` reads a pipe). */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? dir, env: opts.env ?? env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The installed aish in an empty home that points at the test server. */
const aishEnv = (home: string) => isolatedEnv(home, { ...fake.env(), PATH: env().PATH });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aish-package-'));
  prefix = join(dir, 'prefix');
  const src = join(dir, 'checkout');
  mkdirSync(src);
  // What `npm pack` reads and what its hooks run: the files list, the build's scripts, and the
  // checkout's node_modules (esbuild, the grammar) by link.
  for (const f of [
    'package.json',
    'package-lock.json',
    'README.md',
    'LICENSE',
    'BENCHMARKS.md',
    'config.example.ts',
    'bin',
    'src',
    'docs',
    'scripts',
  ])
    cpSync(join(ROOT, f), join(src, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'));
  const t0 = Date.now();
  const pack = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: src, timeoutMs: 60_000 });
  expect(pack.code, pack.stderr).toBe(0);
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  expect(tgz).toBeDefined();
  const t1 = Date.now();
  const install = await run(
    'npm',
    ['install', '--global', '--prefer-offline', '--no-audit', '--no-fund', '--prefix', prefix, join(dir, tgz!)],
    {
      timeoutMs: 90_000,
    },
  );
  expect(install.code, install.stderr).toBe(0);
  installStderr = install.stderr;
  console.log(`npm pack ${t1 - t0} ms, install ${Date.now() - t1} ms`);
}, 150_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('the packed tarball, installed globally', () => {
  it('installs with no warning (below Node 22: only the engines range)', () => {
    const lines = installStderr.split('\n').filter((l) => l.trim());
    const rest = belowEngines ? lines.filter((l) => !/EBADENGINE/.test(l)) : lines;
    expect(rest).toEqual([]);
    if (belowEngines) expect(installStderr).toContain('EBADENGINE');
  });

  it('ships what the README links to, the licence, and no build-time script', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', 'aish');
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?:docs\/|\.\/)?[\w./-]+\.(?:md|ts))(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !existsSync(join(pkgDir, l)))).toEqual([]);
    expect(readFileSync(join(pkgDir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
    expect(existsSync(join(pkgDir, 'node_modules', 'tree-sitter-bash'))).toBe(false);
  });

  it('answers --version, --help and -p', async () => {
    const home = join(dir, 'home-cli');
    expect(await run('aish', ['--version'], { env: aishEnv(home) })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await run('aish', ['--help'], { env: aishEnv(home) });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/Usage: aish/);
    const p = await run('aish', ['-p', 'hello from the package'], { env: aishEnv(home) });
    expect(p).toMatchObject({ code: 0, stdout: 'echo: hello from the package\n' });
    expect(fake.server.requests.length).toBe(1);
  });

  it('adds to memory and lists it, and parses shell commands with the shipped grammar', async () => {
    const home = join(dir, 'home-memory');
    expect(await run('aish', ['memory', 'add', 'fact', 'uses pnpm'], { env: aishEnv(home) })).toMatchObject({
      code: 0,
      stdout: 'added 1 (fact)\n',
    });
    const list = await run('aish', ['memory', 'list'], { env: aishEnv(home) });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('uses pnpm');
    const check = await run('aish', ['rules', 'check', 'ls && rm -rf "x"'], { env: aishEnv(home) });
    expect(check).toMatchObject({ code: 0, stderr: '' });
    expect(check.stdout).toContain('no rule matches');
  });

  it('runs the REPL in a terminal: a question, its answer, Ctrl-D', async () => {
    const home = join(dir, 'home-repl');
    const e = aishEnv(home);
    delete e.CI; // Ink draws only the last frame when CI is set
    e.TERM = 'xterm-256color';
    const pty = spawnPty(join(prefix, 'bin', 'aish'), [], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd: dir,
      env: e,
    });
    let out = '';
    pty.onData((d) => (out += d));
    const exited = new Promise<number>((r) => pty.onExit((x) => r(x.exitCode)));
    const seen = async (what: string) => {
      for (let i = 0; i < 600 && !stripAnsi(out).includes(what); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stripAnsi(out)).toContain(what);
    };
    try {
      await seen('›');
      pty.write('what is in the box\r');
      await seen('echo: what is in the box');
      pty.write('\x04');
      expect(await exited).toBe(0);
      // The cursor comes back by its real sequence, never as `^[[?25h` text before the shell prompt.
      expect(out).not.toContain('^[');
    } finally {
      pty.kill();
    }
  });
});
