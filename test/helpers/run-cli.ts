/** Run the real `bin/aish.cjs` as a child process with an isolated HOME and XDG dirs. */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from './paths';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Sandbox home: HOME and XDG_* point inside it, so the user's real config is never read. */
  home: string;
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
  /** The script node runs (default bin/aish.cjs, the launcher); dist/cli.js runs the full CLI directly. */
  bin?: string;
}

/**
 * V8's compiled code for dist/, shared by every aish the tests start; global-setup.ts empties it
 * when it builds. Each test has a fresh HOME, so aish's own cache there would always be cold: ~80 ms
 * of CPU per start compiling the same bundle again. NODE_COMPILE_CACHE is Node's own variable (the
 * launcher then leaves the cache to Node); test/e2e/compile-cache.test.ts unsets it to check aish's.
 * Inside the jail (test/helpers/jail.ts) the checkout is read-only: the cache is read, not written.
 */
export const TEST_COMPILE_CACHE = join(ROOT, 'node_modules', '.cache', 'aish-test-compile-cache');

export function isolatedEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    CI: 'true',
    // A capture handed off at quit would call the suite's fake server after the test ended and
    // show up in the next test's requests: off unless a test turns it on.
    AISH_CAPTURE: 'off',
    NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runAish(args: string[], opts: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.bin ?? BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: isolatedEnv(opts.home, opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}
