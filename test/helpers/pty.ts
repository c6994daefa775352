/**
 * The real REPL in a real pseudo-terminal (@lydell/node-pty). Ink treats a set CI variable as a
 * non-interactive run and renders only the final frame, so CI is removed from the child's environment.
 */
import { afterAll } from 'vitest';
import { spawn, type IPty } from '@lydell/node-pty';
import { BIN, ROOT } from './paths';
import { isolatedEnv } from './run-cli';
import { Screen } from './screen';

export interface PtySession {
  pty: IPty;
  /** Everything written to the terminal so far, escape sequences included. */
  raw(): string;
  /** The same with escape sequences removed. */
  text(): string;
  write(data: string): void;
  /** What the terminal shows, screen and scrollback (test/helpers/screen.ts). */
  screen: Screen;
  /** Resize the terminal (the emulator re-wraps first, as a real one does, then the child gets SIGWINCH). */
  resize(cols: number, rows: number): void;
  /** Wait until nothing has been written for `quietMs` (counted from the call at the earliest). */
  settle(quietMs?: number, timeoutMs?: number): Promise<void>;
  /** Wait until the visible text (after `from`, an index into text()) matches. */
  waitFor(what: string | RegExp, opts?: { timeoutMs?: number; from?: number }): Promise<void>;
  exited: Promise<{ exitCode: number; signal?: number }>;
  /** The exit code, or a rejection (with the screen) if the process is still running after timeoutMs. */
  exitCode(timeoutMs?: number): Promise<number>;
  kill(): void;
}

// CSI, OSC and single-character escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b[()][0-9A-B]/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

export function spawnAish(
  args: string[],
  opts: { home: string; env?: Record<string, string | undefined>; cols?: number; rows?: number; cwd?: string },
): PtySession {
  const env = isolatedEnv(opts.home, { TERM: 'xterm-256color', CI: undefined, ...opts.env });
  const pty = spawn(process.execPath, [BIN, ...args], {
    name: env.TERM ?? 'xterm-256color', // node-pty sets TERM to this name
    cols: opts.cols ?? 100,
    rows: opts.rows ?? 30,
    cwd: opts.cwd ?? ROOT,
    env,
  });
  let out = '';
  let lastData = Date.now();
  const screen = new Screen(opts.cols ?? 100, opts.rows ?? 30);
  const waiters = new Set<() => void>();
  pty.onData((d) => {
    out += d;
    lastData = Date.now();
    screen.write(d);
    for (const w of [...waiters]) w();
  });
  // node-pty can report the exit before the last output chunk: give trailing data a moment.
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => pty.onExit((e) => setTimeout(() => resolve(e), 200)));
  return {
    pty,
    raw: () => out,
    text: () => stripAnsi(out),
    write: (d) => pty.write(d),
    screen,
    resize(cols, rows) {
      screen.resize(cols, rows);
      pty.resize(cols, rows);
    },
    async settle(quietMs = 250, timeoutMs = 10_000) {
      const start = Date.now();
      const end = start + timeoutMs;
      while (Date.now() - Math.max(lastData, start) < quietMs) {
        if (Date.now() > end) throw new Error(`output did not settle; screen tail:\n${stripAnsi(out).slice(-1500)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    waitFor(what, o = {}) {
      const timeoutMs = o.timeoutMs ?? 10_000;
      const from = o.from ?? 0;
      const test = () => {
        const t = stripAnsi(out).slice(from);
        return typeof what === 'string' ? t.includes(what) : what.test(t);
      };
      if (test()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (test()) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${String(what)}; screen tail:\n${stripAnsi(out).slice(-1500)}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    exited,
    exitCode(timeoutMs = 10_000) {
      return Promise.race([
        exited.then((e) => e.exitCode),
        new Promise<number>((_, reject) =>
          setTimeout(
            () => reject(new Error(`still running after ${timeoutMs} ms; screen tail:\n${stripAnsi(out).slice(-1500)}`)),
            timeoutMs,
          ).unref(),
        ),
      ]);
    },
    kill: () => {
      try {
        pty.kill();
      } catch {
        // already gone
      }
    },
  };
}

/**
 * `start(home)` for a test file's REPL sessions: each spawned aish is killed after the file, so a
 * failed test leaves no process behind. `env` is read at spawn time (the fake server starts later).
 */
export function ptySessions(env: () => Record<string, string | undefined>, defaults: { cols?: number; rows?: number } = {}) {
  const live: PtySession[] = [];
  afterAll(() => live.forEach((s) => s.kill()));
  return (home: string, args: string[] = [], opts: { cols?: number; rows?: number; cwd?: string } = {}): PtySession => {
    const s = spawnAish(args, { home, env: env(), ...defaults, ...opts });
    live.push(s);
    return s;
  };
}
