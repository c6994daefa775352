/** git as a test's user runs it: HOME the test's own home, no system config, default branch main. */
import { execFileSync } from 'node:child_process';

export function gitIn(home: string, cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
