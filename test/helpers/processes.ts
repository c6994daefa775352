/** Spawning and watching real child processes. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { workerScript } from './bundle';

export interface Worker {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when a stdout line satisfies `pred`. */
  waitFor(pred: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

export function startWorker(name: string, args: unknown): Worker {
  const child = spawn(process.execPath, [workerScript(name), JSON.stringify(args)], { stdio: 'pipe' });
  const lines: string[] = [];
  const waiters: Array<{ pred: (l: string) => boolean; resolve: (l: string) => void }> = [];
  let buf = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    waitFor(pred, timeoutMs = 20_000) {
      const hit = lines.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`worker ${name}: timed out; stderr: ${stderr.slice(-500)}`)), timeoutMs);
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(t);
            resolve(l);
          },
        });
      });
    },
  };
}
