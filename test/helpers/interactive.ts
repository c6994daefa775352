/** A plain-mode aish (stdin a pipe) fed line by line, for tests that act between lines. */
import { spawn } from 'node:child_process';
import { BIN, ROOT } from './paths';
import { isolatedEnv } from './run-cli';

export interface Interactive {
  send(line: string): void;
  /** Resolves when stdout (or stderr), from index `from`, matches. */
  waitFor(what: string | RegExp, opts?: { timeoutMs?: number; from?: number; stream?: 'stdout' | 'stderr' }): Promise<void>;
  stdout(): string;
  stderr(): string;
  /** Close stdin and wait for the exit code. */
  end(timeoutMs?: number): Promise<number | null>;
}

export function startInteractive(args: string[], opts: { home: string; env?: Record<string, string | undefined> }): Interactive {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: isolatedEnv(opts.home, opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of [...waiters]) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    send: (line) => child.stdin.write(line + '\n'),
    stdout: () => out,
    stderr: () => err,
    waitFor(what, o = {}) {
      const from = o.from ?? 0;
      const test = () => {
        const t = (o.stream === 'stderr' ? err : out).slice(from);
        return typeof what === 'string' ? t.includes(what) : what.test(t);
      };
      if (test()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!test()) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${String(what)}; stdout tail:\n${out.slice(-1200)}\nstderr:\n${err.slice(-600)}`));
        }, o.timeoutMs ?? 10_000);
        waiters.add(check);
      });
    },
    async end(timeoutMs = 10_000) {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
  };
}
