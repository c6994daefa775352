/**
 * A throwaway jail for tests that feed aish hostile commands: a fake HOME (with a project inside
 * it) under a fresh directory, and — where bubblewrap works — the whole aish process run inside
 * bubblewrap with `/` read-only and only that directory writable, so a step that escaped aish's
 * own sandbox still cannot touch the machine. aish's own bubblewrap nests inside it: the outer one
 * keeps its capabilities (started by root) or a user namespace of its own, the inner one drops them.
 * Not under /tmp: aish's sandbox shows every step a private /tmp, which would hide the fake HOME.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { BIN, CHECKOUT } from './paths';
import { isolatedEnv, type CliResult } from './run-cli';

export interface Jail {
  /** Everything the jailed aish may write lives under here. */
  root: string;
  /** The fake HOME. */
  home: string;
  /** aish's project directory, inside HOME as for a user. */
  work: string;
}

/** Outer bubblewrap works here (nested one is aish's own business). */
const jailWorks =
  process.platform === 'linux' &&
  spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'bwrap', '--ro-bind', '/', '/', '--dev', '/dev', 'true'], {
    stdio: 'ignore',
  }).status === 0;

/** bubblewrap is installed (it answers --version), whether or not it can start a jail here. */
const bwrapInstalled = process.platform === 'linux' && spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;

/** bubblewrap starts a sandbox here (not nested in another). */
const bwrapWorks =
  process.platform === 'linux' && spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', 'true'], { stdio: 'ignore' }).status === 0;

/**
 * In CI with bubblewrap installed, tests that need it run whether or not it works, so that a
 * sandbox or jail that stopped working there fails them instead of skipping them. They skip only
 * without bubblewrap, or outside CI where it cannot start.
 */
export const jailRequired = Boolean(process.env.CI) && bwrapInstalled;
/** Tests that run aish inside the jail run. */
export const jailRuns = jailWorks || jailRequired;
/** Tests that run bubblewrap itself (aish's sandbox, not nested) run. */
export const sandboxRuns = bwrapWorks || jailRequired;

/** For a test title: why it was skipped, if it was. */
export const jailSkipNote = jailRuns ? '' : ' (SKIPPED: bubblewrap does not work here)';

export function makeJail(): Jail {
  const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  const root = realpathSync(mkdtempSync(join(base, 'aish-jail-')));
  onTestFinished(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  const home = join(root, 'home');
  const work = join(home, 'work');
  mkdirSync(work, { recursive: true });
  return { root, home, work };
}

/**
 * The outer jail's options: `/` read-only, `root` writable, a private /tmp; loopback stays shared
 * (the fake server). `ownUser`: a user namespace of its own too (for a jail started without root).
 */
function jailArgs(root: string, cwd: string, ownUser: boolean): string[] {
  return [
    '--die-with-parent',
    '--unshare-pid',
    ...(ownUser ? ['--unshare-user'] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    // The checkout stays visible (read-only) when it lives under /tmp, as a CI clone may.
    '--ro-bind',
    CHECKOUT,
    CHECKOUT,
    '--bind',
    root,
    root,
    '--chdir',
    cwd,
  ];
}

export interface JailRun {
  /** Everything the jailed aish may write lives under here. */
  root: string;
  /** HOME for aish (and what isolatedEnv builds its environment from). */
  home: string;
  cwd: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  ownUser?: boolean;
}

/** Runs bin/aish.cjs with `args` inside an outer jail, no terminal, stdin empty. */
export function runAishInJail(args: string[], run: JailRun): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bwrap', [...jailArgs(run.root, run.cwd, run.ownUser ?? false), '--', process.execPath, BIN, ...args], {
      env: isolatedEnv(run.home, run.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), run.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end('');
  });
}

/** Runs bin/aish.cjs inside the jail (HOME = the jail's), like runAish does outside. */
export function runAishJailed(
  jail: Jail,
  args: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return runAishInJail(args, { root: jail.root, home: jail.home, cwd: opts.cwd ?? jail.work, ...opts });
}
