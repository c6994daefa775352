/**
 * The sync repository's clone: `<data dir>/sync/repo`, a cache of the remote and nothing more.
 * git uses it as a bare repository (`repo/.git`, core.bare): it never checks anything out, so no
 * filter, diff or merge driver a `.gitattributes` names can run. aish writes the writer files of the
 * fetched `main` beside it itself (`repo/writers/`, straight from `git cat-file`), reads them there,
 * appends to its own, and makes its commit with plumbing (hash-object, update-index, write-tree,
 * commit-tree) on top of `main`: no merge, no rebase, so a sync killed at any moment leaves nothing
 * to resume (a half-made commit or a stale lock file is thrown away by the next one).
 */
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { AishError } from '../../util/errors';
import { gitSaid, runGit, shownUrl, type GitIO, type GitResult } from './git';
import { BRANCH, checkMemoryRepo, isWriterPath, localPath } from './check-repo';

const TRACKING = `refs/remotes/origin/${BRANCH}`;
const ATTRIBUTES = '.gitattributes';
const ATTRIBUTES_TEXT = 'writers/*.jsonl merge=union\n';
/** Which blob each file written beside the clone holds: `{path: sha}`. */
const WRITTEN = 'aish-written.json';

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

interface Entry {
  mode: string;
  type: string;
  sha: string;
  size: number;
}

export class SyncRepo {
  private readonly gitDir: string;
  /** The tree of the commit the files beside the clone are from. */
  private tree = new Map<string, Entry>();

  constructor(
    readonly dir: string,
    private readonly remote: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly deadline: number,
  ) {
    this.gitDir = join(dir, '.git');
  }

  private git(args: string[], io?: GitIO): Promise<GitResult> {
    return runGit([`--git-dir=${this.gitDir}`, ...args], this.dir, this.env, this.deadline, io);
  }

  private async must(args: string[], what: string, io?: GitIO): Promise<string> {
    const r = await this.git(args, io);
    if (r.code !== 0) throw new AishError(`memory sync: ${what} failed: ${gitSaid(r)}`);
    return r.stdout.trim();
  }

  /** A usable clone pointing at the configured remote: made (again) when missing or broken. */
  async prepare(): Promise<void> {
    for (const l of LOCKS) rmSync(join(this.gitDir, l), { force: true });
    // The usual case, read from the config file: a clone already set up for this remote.
    if (existsSync(join(this.gitDir, 'HEAD')) && readText(join(this.gitDir, 'config')).includes(`\turl = ${this.remote}\n`)) return;
    if (existsSync(this.gitDir) && (await this.git(['rev-parse', '--git-dir'])).code === 0) {
      const url = await this.git(['config', '--get', 'remote.origin.url']);
      await this.must(['remote', url.code === 0 ? 'set-url' : 'add', 'origin', this.remote], 'setting the remote');
      return;
    }
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    await this.must(['init', '-q', '--bare', `--initial-branch=${BRANCH}`], 'git init');
    await this.must(['remote', 'add', 'origin', this.remote], 'setting the remote');
  }

  /** A ref's commit, read from its file (or packed-refs); undefined when there is none. */
  ref(name: string): string | undefined {
    const loose = readText(join(this.gitDir, name)).trim();
    if (/^[0-9a-f]{40,64}$/.test(loose)) return loose;
    for (const line of readText(join(this.gitDir, 'packed-refs')).split('\n')) {
      const [sha, ref] = line.split(' ');
      if (ref === name && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
    return undefined;
  }

  /**
   * Fetch the remote's branches and check it is a memory repository (check-repo.ts): the commit
   * `main` is at, or null for a remote with no commits yet.
   */
  async fetch(): Promise<string | null> {
    const r = await this.git(['fetch', '--prune', '--no-tags', '--quiet', 'origin', '+refs/heads/*:refs/remotes/origin/*']);
    if (r.code !== 0) throw new AishError(`memory sync: cannot fetch ${shownUrl(this.remote)}: ${gitSaid(r)}`);
    const head = this.ref(TRACKING) ?? null;
    await checkMemoryRepo((args) => this.git(args), this.remote, head);
    return head;
  }

  /**
   * Make the files beside the clone exactly the writer files of `base` (null: none): only those
   * that differ from what was written last are fetched from git, each straight into its file.
   */
  async checkout(base: string | null): Promise<void> {
    const tree = base ? await this.lsTree(base) : new Map<string, Entry>();
    const written = readWritten(join(this.gitDir, WRITTEN));
    const next: Record<string, string> = {};
    for (const name of readdirSync(this.dir))
      if (name !== '.git' && name !== 'writers') rmSync(join(this.dir, name), { recursive: true, force: true });
    const writers = join(this.dir, 'writers');
    mkdirSync(writers, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(writers))
      if (!tree.has(`writers/${name}`) || !isWriterPath(`writers/${name}`)) rmSync(join(writers, name), { recursive: true, force: true });
    for (const [path, e] of tree) {
      // Only regular files are written: a link or a submodule in the tree is nothing of ours.
      if (!isWriterPath(path) || e.type !== 'blob' || e.mode !== '100644') continue;
      const file = join(this.dir, path);
      if (written[path] !== e.sha || sizeOf(file) !== e.size) await this.writeBlob(e.sha, file);
      next[path] = e.sha;
    }
    writeFileAtomicSync(join(this.gitDir, WRITTEN), JSON.stringify(next) + '\n', { mode: 0o600 });
    this.tree = tree;
  }

  /** One blob into `file`, through a temporary file: never a half-written file under its name. */
  private async writeBlob(sha: string, file: string): Promise<void> {
    const tmp = `${file}.tmp`;
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, 'wx', 0o600);
    let r: GitResult;
    try {
      r = await this.git(['cat-file', 'blob', sha], { stdoutFd: fd });
    } finally {
      closeSync(fd);
    }
    if (r.code !== 0) throw new AishError(`memory sync: reading the repository failed: ${gitSaid(r)}`);
    renameSync(tmp, file);
  }

  private async lsTree(commit: string): Promise<Map<string, Entry>> {
    const out = await this.must(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], 'git ls-tree');
    const tree = new Map<string, Entry>();
    for (const line of out.split('\0')) {
      const m = /^(\d{6}) (\w+) ([0-9a-f]{40,64}) +(-|\d+)\t(.+)$/s.exec(line);
      if (m) tree.set(m[5]!, { mode: m[1]!, type: m[2]!, sha: m[3]!, size: m[4] === '-' ? -1 : Number(m[4]) });
    }
    return tree;
  }

  /** Whether `path` (relative to the repository) is a file of the checked-out commit. */
  tracks(path: string): boolean {
    return this.tree.has(path);
  }

  /**
   * Commit `files` (relative paths, written beside the clone) on top of `base` with `message`, and
   * push; 'rejected' when the remote moved meanwhile.
   */
  async commitAndPush(base: string | null, files: string[], message: string): Promise<'pushed' | 'rejected'> {
    await this.must(base ? ['read-tree', base] : ['read-tree', '--empty'], 'git read-tree');
    const blobs: Record<string, string> = {};
    for (const path of files) {
      blobs[path] = await this.must(['hash-object', '-w', '--no-filters', '--', join(this.dir, path)], 'git hash-object');
      await this.must(['update-index', '--add', '--cacheinfo', `100644,${blobs[path]},${path}`], 'git update-index');
    }
    if (!this.tree.has(ATTRIBUTES)) {
      const sha = await this.must(['hash-object', '-w', '--stdin'], 'git hash-object', { input: ATTRIBUTES_TEXT });
      await this.must(['update-index', '--add', '--cacheinfo', `100644,${sha},${ATTRIBUTES}`], 'git update-index');
    }
    const tree = await this.must(['write-tree'], 'git write-tree');
    const commit = await this.must(['commit-tree', tree, ...(base ? ['-p', base] : []), '-m', message], 'git commit');
    await this.must(['update-ref', `refs/heads/${BRANCH}`, commit], 'git update-ref');
    // A remote on this disk is pushed to by a receive-pack git starts here, without our settings
    // (it reads the user's config and the remote's): its hooks are turned off on its command line.
    const receive = localPath(this.remote) !== undefined ? [`--receive-pack=git -c core.hooksPath=${devNull} receive-pack`] : [];
    const r = await this.git(['push', '--quiet', '--porcelain', ...receive, 'origin', `${commit}:refs/heads/${BRANCH}`]);
    if (r.code === 0) {
      // Our files beside the clone are what we pushed: the next checkout need not write them again.
      const written = readWritten(join(this.gitDir, WRITTEN));
      writeFileAtomicSync(join(this.gitDir, WRITTEN), JSON.stringify({ ...written, ...blobs }) + '\n', { mode: 0o600 });
      return 'pushed';
    }
    if (/\[rejected\]|non-fast-forward|fetch first|stale info|cannot lock ref|failed to update ref/i.test(r.stdout + r.stderr))
      return 'rejected';
    throw new AishError(`memory sync: push to ${shownUrl(this.remote)} failed: ${gitSaid(r)}`);
  }
}

function sizeOf(path: string): number {
  try {
    const st = lstatSync(path);
    return st.isFile() ? st.size : -1;
  } catch {
    return -1;
  }
}

function readWritten(path: string): Record<string, string> {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
