/**
 * Runs shell commands for `!CMD` and the model's run_command: the user's shell, in
 * aish's directory, output streamed as it comes and captured for the model with a cap that keeps
 * the head and the tail.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { newMark, reap, STEP_MARK, underSubreaper } from './reap';
import type { Sandbox, SandboxView } from './sandbox/types';

export interface ShellResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Captured output (stdout and stderr interleaved as they arrived), capped. */
  output: string;
  /** Bytes left out of `output` in the middle. */
  omitted: number;
  timedOut: boolean;
}

export interface ShellOptions {
  cwd: string;
  signal?: AbortSignal;
  onOutput?: (text: string) => void;
  /** Characters of output kept for the model (head + tail). Default 16 KiB. */
  captureLimit?: number;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Run the command inside this sandbox (see findSandbox). */
  sandbox?: Sandbox;
  /** What the command may write and reach in there; default: its cwd, the sandbox's network. */
  view?: SandboxView;
  /** The shell that runs it; default the user's. */
  shell?: string;
  /** Stop everything the command started when its shell exits (reap.ts): a step nobody approved, without a sandbox. */
  reap?: boolean;
}

/**
 * The shell for commands a model wrote: bash when there is one, because the safety checks read
 * commands as bash (a command that is harmless in bash's grammar could mean something else to zsh
 * or fish); the user's shell otherwise.
 */
export function modelShell(env: NodeJS.ProcessEnv = process.env): string {
  return existsSync('/bin/bash') ? '/bin/bash' : userShell(env);
}

export function userShell(env: NodeJS.ProcessEnv = process.env): string {
  return env.SHELL && env.SHELL.startsWith('/') ? env.SHELL : '/bin/sh';
}

/** Keeps the first and last halves of a stream within a limit. */
export class HeadTail {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly limit: number) {}

  push(text: string): void {
    const half = Math.floor(this.limit / 2);
    if (this.head.length < half) {
      const take = text.slice(0, half - this.head.length);
      this.head += take;
      text = text.slice(take.length);
    }
    if (!text) return;
    this.tail += text;
    if (this.tail.length > this.limit - half) {
      const cut = this.tail.length - (this.limit - half);
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  get omitted(): number {
    return this.dropped;
  }

  text(): string {
    return this.dropped ? `${this.head}\n[… ${this.dropped} characters omitted …]\n${this.tail}` : this.head + this.tail;
  }
}

export function runShell(command: string, opts: ShellOptions): Promise<ShellResult> {
  return new Promise((resolve) => {
    const cap = new HeadTail(opts.captureLimit ?? 16 * 1024);
    let timedOut = false;
    const shell = opts.shell ?? userShell(opts.env);
    const mark = opts.reap ? newMark() : null;
    const { file, args } = opts.sandbox
      ? opts.sandbox.wrap(shell, command, opts.cwd, opts.view)
      : mark
        ? underSubreaper(shell, ['-c', command], (opts.env ?? process.env).PATH)
        : { file: shell, args: ['-c', command] };
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: mark ? { ...(opts.env ?? process.env), [STEP_MARK]: mark } : (opts.env ?? process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group, so cancelling kills the whole pipeline, not just the shell.
      detached: true,
    });
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const onAbort = () => {
      kill('SIGINT');
      setTimeout(() => kill('SIGKILL'), 1500).unref();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          onAbort();
        }, opts.timeoutMs)
      : undefined;
    const onData = (d: Buffer) => {
      const s = d.toString('utf8');
      cap.push(s);
      opts.onOutput?.(s);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const done = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      // The sandbox itself failed (e.g. namespaces denied): the command never ran; say so plainly.
      const failed = opts.sandbox?.startFailure?.(exitCode, cap.text());
      if (failed) opts.onOutput?.(`${failed}\n`);
      resolve({ exitCode, signal, output: failed ?? cap.text(), omitted: failed ? 0 : cap.omitted, timedOut });
    };
    child.on('error', (err) => {
      const msg = `aish: cannot start ${file}: ${err.message}\n`;
      cap.push(msg);
      opts.onOutput?.(msg);
      done(127, null);
    });
    // Whatever it left running goes when the shell does (and no longer holds the output open).
    if (mark) child.on('exit', () => reap(child.pid, mark));
    child.on('close', done);
  });
}

/**
 * Programs that need the real terminal (full-screen or interactive). Anything else runs with its
 * output captured. `!!cmd` forces the terminal for programs not listed here.
 */
const TERMINAL_PROGRAMS = new Set([
  'vi',
  'vim',
  'nvim',
  'view',
  'vimdiff',
  'nano',
  'pico',
  'emacs',
  'micro',
  'hx',
  'helix',
  'kak',
  'less',
  'more',
  'most',
  'man',
  'info',
  'top',
  'htop',
  'btop',
  'atop',
  'iotop',
  'watch',
  'ssh',
  'mosh',
  'telnet',
  'tmux',
  'screen',
  'fzf',
  'mc',
  'ranger',
  'nnn',
  'lf',
  'tig',
  'lazygit',
  'ncdu',
  'nmtui',
  'alsamixer',
  'dialog',
  'whiptail',
]);
const REPLS = new Set([
  'bash',
  'sh',
  'zsh',
  'fish',
  'dash',
  'python',
  'python3',
  'node',
  'irb',
  'ghci',
  'psql',
  'mysql',
  'sqlite3',
  'redis-cli',
  'lua',
  'R',
]);

export function needsTerminal(command: string): boolean {
  const words = command
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  while (words[0] === 'sudo' || words[0] === 'env' || words[0] === 'exec' || words[0] === 'command') words.shift();
  const prog = (words[0] ?? '').split('/').pop() ?? '';
  if (TERMINAL_PROGRAMS.has(prog)) return true;
  // A bare REPL (`python`, `psql mydb`) is interactive; with a script or -c it is not.
  if (REPLS.has(prog))
    return !words
      .slice(1)
      .some((w) => w === '-c' || w === '-e' || w === '--command' || /\.(py|js|rb|sh|sql|lua|R)$/.test(w) || w === '<' || w === '|');
  return false;
}

/** Runs with the real terminal: inherits stdio, nothing captured. */
export function runInTerminal(command: string, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<ShellResult> {
  return new Promise((resolve) => {
    const child = spawn(userShell(env), ['-c', command], { cwd, env, stdio: 'inherit' });
    child.on('error', () => resolve({ exitCode: 127, signal: null, output: '', omitted: 0, timedOut: false }));
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, output: '', omitted: 0, timedOut: false }));
  });
}
