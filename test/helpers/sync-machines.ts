/**
 * Several "machines" syncing memory through one bare git repository on disk: each has its own
 * data directory; syncs run in-process through the real engine and the real git.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStore } from '../../src/memory/store';
import { runSync, type SyncOptions } from '../../src/memory/sync/run';
import type { SyncReport } from '../../src/memory/sync/report';
import { realPath } from '../../src/util/paths';
import { tmpDir } from './tmp';

/** git with no user or system config: what a test's own git commands run as. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** git run as a commit that passes for one aish made (its committer and an `aish memory: …` subject: check-repo.ts). */
export function gitAsAish(cwd: string, ...args: string[]): string {
  const who = { GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'aish@localhost', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'aish@localhost' };
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-C', cwd, ...args], {
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C', ...who },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface Machine {
  name: string;
  dir: string;
  memoryPath: string;
  store(): MemoryStore;
  sync(opts?: Partial<SyncOptions>): Promise<SyncReport>;
  /** Active item texts, sorted. */
  texts(): string[];
  file(): string;
}

export interface Net {
  root: string;
  remote: string;
  machine(name: string): Machine;
  /** Everything the remote's history ever held (every commit's patch). */
  history(): string;
}

export function syncNet(): Net {
  const root = realPath(tmpDir('aish-sync-'));
  const remote = join(root, 'remote.git');
  git(root, 'init', '-q', '--bare', remote);
  const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' };
  return {
    root,
    remote,
    machine(name) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const memoryPath = join(dir, 'memory.jsonl');
      const store = () => MemoryStore.open(memoryPath);
      return {
        name,
        dir,
        memoryPath,
        store,
        sync: (opts = {}) => runSync({ memoryPath, remote, name, timeoutMs: 30_000, env, ...opts }),
        texts: () =>
          store()
            .items()
            .map((i) => i.content)
            .sort(),
        file: () => readFileSync(memoryPath, 'utf8'),
      };
    },
    history: () => execFileSync('git', ['--git-dir', remote, 'log', '--all', '-p', '--format=%H %s'], { encoding: 'utf8', env }),
  };
}
