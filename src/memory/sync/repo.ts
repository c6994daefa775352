/**
 * The sync repository's clone: `<data dir>/sync/repo`, a cache of the remote and nothing more.
 * Every sync puts its work tree back exactly on the remote's `main` and lays this writer's new
 * lines on top as one commit: no merge, no rebase, so a sync killed at any moment leaves nothing
 * to resume (a half-made commit or a stale lock file is thrown away by the next one).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AishError } from '../../util/errors';
import { gitSaid, runGit, shownUrl, type GitResult } from './git';

const BRANCH = 'main';
const TRACKING = `refs/remotes/origin/${BRANCH}`;

/** Lock files git leaves behind when it is killed; only a sync (under the sync lock) runs git here. */
const LOCKS = [
  'index.lock',
  'HEAD.lock',
  'config.lock',
  'packed-refs.lock',
  'shallow.lock',
  `refs/heads/${BRANCH}.lock`,
  `${TRACKING}.lock`,
];

export class SyncRepo {
  constructor(
    readonly dir: string,
    private readonly remote: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly deadline: number,
  ) {}

  private git(args: string[]): Promise<GitResult> {
    return runGit(args, this.dir, this.env, this.deadline);
  }

  private async must(args: string[], what: string): Promise<GitResult> {
    const r = await this.git(args);
    if (r.code !== 0) throw new AishError(`memory sync: ${what} failed: ${gitSaid(r)}`);
    return r;
  }

  /** A usable clone pointing at the configured remote: made (again) when missing or broken. */
  async prepare(): Promise<void> {
    const gitDir = join(this.dir, '.git');
    for (const l of LOCKS) rmSync(join(gitDir, l), { force: true });
    // The usual case, read from the config file: a clone already set up for this remote.
    if (existsSync(join(gitDir, 'HEAD')) && readText(join(gitDir, 'config')).includes(`\turl = ${this.remote}\n`)) return;
    if (existsSync(gitDir) && (await this.git(['rev-parse', '--git-dir'])).code === 0) {
      const url = await this.git(['config', '--get', 'remote.origin.url']);
      if (url.code === 0) await this.must(['remote', 'set-url', 'origin', this.remote], 'setting the remote');
      else await this.must(['remote', 'add', 'origin', this.remote], 'setting the remote');
      return;
    }
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    await this.must(['init', '-q', '-b', BRANCH], 'git init');
    await this.must(['remote', 'add', 'origin', this.remote], 'setting the remote');
  }

  /** A ref's commit, read from its file (or packed-refs); undefined when there is none. */
  ref(name: string): string | undefined {
    const gitDir = join(this.dir, '.git');
    const loose = readText(join(gitDir, name)).trim();
    if (/^[0-9a-f]{40,64}$/.test(loose)) return loose;
    for (const line of readText(join(gitDir, 'packed-refs')).split('\n')) {
      const [sha, ref] = line.split(' ');
      if (ref === name && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
    return undefined;
  }

  /** Fetch the remote's branches; the commit `main` is at, or null for a remote with no commits yet. */
  async fetch(): Promise<string | null> {
    const r = await this.git(['fetch', '--prune', '--no-tags', '--quiet', 'origin', '+refs/heads/*:refs/remotes/origin/*']);
    if (r.code !== 0) throw new AishError(`memory sync: cannot fetch ${shownUrl(this.remote)}: ${gitSaid(r)}`);
    return this.ref(TRACKING) ?? null;
  }

  /**
   * Make the work tree exactly `base` (null: empty, no commit), whatever a killed sync left.
   * `clean`: the caller knows the tree is `base` already (HEAD is there and our file is as pushed).
   */
  async checkout(base: string | null, clean = false): Promise<void> {
    if (base && clean && this.ref(`refs/heads/${BRANCH}`) === base) return;
    if (base) {
      await this.must(['reset', '-q', '--hard', base], 'git reset');
      await this.must(['clean', '-ffdqx'], 'git clean');
      return;
    }
    await this.must(['symbolic-ref', 'HEAD', `refs/heads/${BRANCH}`], 'git symbolic-ref');
    await this.git(['update-ref', '-d', `refs/heads/${BRANCH}`]);
    await this.must(['read-tree', '--empty'], 'git read-tree');
    for (const name of readdirSync(this.dir)) if (name !== '.git') rmSync(join(this.dir, name), { recursive: true, force: true });
  }

  /** Commit the work tree's changes to `paths` and push; 'rejected' when the remote moved meanwhile. */
  async commitAndPush(paths: string[], message: string, tracked: boolean): Promise<'pushed' | 'rejected'> {
    // Files git tracks already are committed by path, without a separate add.
    if (!tracked) await this.must(['add', '--', ...paths], 'git add');
    await this.must(['commit', '-q', '--no-verify', '-m', message, ...(tracked ? ['--', ...paths] : [])], 'git commit');
    const r = await this.git(['push', '--quiet', '--porcelain', 'origin', `HEAD:refs/heads/${BRANCH}`]);
    if (r.code === 0) return 'pushed';
    if (/\[rejected\]|non-fast-forward|fetch first|stale info|cannot lock ref|failed to update ref/i.test(r.stdout + r.stderr))
      return 'rejected';
    throw new AishError(`memory sync: push to ${shownUrl(this.remote)} failed: ${gitSaid(r)}`);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
