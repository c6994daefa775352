/**
 * Setup file of the `unit` project: unit tests run inside this process. Starting a child process,
 * a worker thread or a PTY throws, and is also recorded so that a test which catches the error
 * still fails (afterEach). A test that needs real processes belongs in test/e2e/.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';
import { afterEach, vi } from 'vitest';

const attempts: string[] = [];

function refuse(what: string): never {
  attempts.push(what);
  throw new Error(`a unit test tried to start ${what}; tests that run real processes belong in test/e2e/`);
}

const cp = childProcess as unknown as Record<string, unknown>;
for (const fn of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  cp[fn] = (...args: unknown[]) => refuse(`child_process.${fn}(${JSON.stringify(args[0])})`);
}
(workerThreads as unknown as Record<string, unknown>).Worker = function Worker(url: unknown) {
  refuse(`a worker thread (${String(url)})`);
};
syncBuiltinESMExports(); // named imports (`import { spawn } from 'node:child_process'`) see the same

vi.mock('@lydell/node-pty', () => ({
  spawn: (file: string) => refuse(`a PTY (${file})`),
}));

afterEach(() => {
  if (attempts.length) {
    const seen = attempts.splice(0);
    throw new Error(`unit test started a process: ${seen.join('; ')}`);
  }
});
