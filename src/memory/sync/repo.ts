/**
 * The sync repository's clone: `<data dir>/sync/repo`, a cache of the remote and nothing more.
 * git uses it as a bare repository (`repo/.git`, core.bare): it never checks anything out, so no
 * filter, diff or merge driver a `.gitattributes` names can run. aish writes the writer files of the
 * fetched `main` beside it itself (`repo/writers/`, straight from `git cat-file`), reads them there,
 * appends to its own, and makes its commit with `git fast-import` on top of `main`: no merge, no
 * rebase, so a sync killed at any moment leaves nothing to resume (a half-made commit or a stale
 * lock file is thrown away by the next one).
 */
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { AishError } from '../../util/errors';
import { AISH_EMAIL, gitSaid, runGit, shownUrl, type GitIO, type GitResult } from './git';
import { BRANCH, checkBranches, checkHistory, checkTree, isWriterPath, localPath, readText } from './check-repo';

const TRACKING = `refs/remotes/origin/${BRANCH}`;
const ATTRIBUTES = '.gitattributes';
const ATTRIBUTES_TEXT = 'writers/*.jsonl merge=union\n';
/** The ref aish's commits are made on, before they are pushed. */
const SCRATCH = 'refs/aish/commit';
/** What aish knows of the clone (Memo), in its git directory. */
const MEMO = 'aish-memo.json';

/** Lock files git leaves behind when it is killed; only a sync (under the sync lock) runs git here. */
const LOCKS = [
  'index.lock',
  'HEAD.lock',
  'config.lock',
  'packed-refs.lock',
  'shallow.lock',
  `refs/heads/${BRANCH}.lock`,
  `${TRACKING}.lock`,
  `${SCRATCH}.lock`,
];

interface Entry {
  mode: string;
  type: string;
  sha: string;
  size: number;
}

/**
 * `checked`: the last commit of main found to be a memory repository's (check-repo.ts): what it
 * reaches is not read again. `commit`: the commit the files beside the clone are from, with
 * each file's blob and size, and whether its tree has `.gitattributes`.
 */
interface Memo {
  checked?: string;
  commit?: string | null;
  files: Record<string, { sha: string; size: number }>;
  attributes?: boolean;
}

export class SyncRepo {
  private readonly gitDir: string;
  private memo: Memo;
  /** main's tree as listed by the last fetch, when it was listed. */
  private listed: { commit: string; tree: Map<string, Entry> } | undefined;

  constructor(
    readonly dir: string,
    private readonly remote: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly deadline: number,
  ) {
    this.gitDir = join(dir, '.git');
    this.memo = readMemo(join(this.gitDir, MEMO));
  }

  private saveMemo(memo: Memo): void {
    this.memo = memo;
    writeFileAtomicSync(join(this.gitDir, MEMO), JSON.stringify(memo) + '\n', { mode: 0o600 });
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
    this.memo = { files: {} };
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

  /** The remote's branches, as the last fetch left them (loose refs and packed-refs). */
  private remoteBranches(): string[] {
    const prefix = 'refs/remotes/origin/';
    const found = new Set<string>();
    const walk = (rel: string): void => {
      let names: string[];
      try {
        names = readdirSync(join(this.gitDir, prefix, rel));
      } catch {
        return;
      }
      for (const n of names) {
        const path = rel ? `${rel}/${n}` : n;
        if (lstatSync(join(this.gitDir, prefix, path)).isDirectory()) walk(path);
        else if (!n.endsWith('.lock')) found.add(path);
      }
    };
    walk('');
    for (const line of readText(join(this.gitDir, 'packed-refs')).split('\n')) {
      const ref = line.split(' ')[1];
      if (ref?.startsWith(prefix)) found.add(ref.slice(prefix.length));
    }
    return [...found];
  }

  /**
   * Fetch the remote's branches and check it is a memory repository (check-repo.ts), before
   * anything is written: the commit `main` is at, or null for a remote with no commits yet.
   */
  async fetch(): Promise<string | null> {
    const r = await this.git(['fetch', '--prune', '--no-tags', '--quiet', 'origin', '+refs/heads/*:refs/remotes/origin/*']);
    if (r.code !== 0) throw new AishError(`memory sync: cannot fetch ${shownUrl(this.remote)}: ${gitSaid(r)}`);
    checkBranches(this.remote, this.remoteBranches());
    const head = this.ref(TRACKING) ?? null;
    if (head && head !== this.memo.checked) {
      const tree = await this.lsTree(head);
      checkTree(this.remote, tree);
      await checkHistory((args) => this.git(args), this.remote, head, this.memo.checked);
      this.listed = { commit: head, tree };
      this.saveMemo({ ...this.memo, checked: head });
    }
    return head;
  }

  /**
   * Make the files beside the clone exactly the writer files of `base` (null: none): only those
   * that differ from what was written last are fetched from git, each straight into its file.
   */
  async checkout(base: string | null): Promise<void> {
    const writers = join(this.dir, 'writers');
    mkdirSync(writers, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.dir))
      if (name !== '.git' && name !== 'writers') rmSync(join(this.dir, name), { recursive: true, force: true });
    if (this.memo.commit === base && this.filesAsMemo(writers)) return;
    const tree = !base ? new Map<string, Entry>() : this.listed?.commit === base ? this.listed.tree : await this.lsTree(base);
    for (const name of readdirSync(writers))
      if (!tree.has(`writers/${name}`) || !isWriterPath(`writers/${name}`)) rmSync(join(writers, name), { recursive: true, force: true });
    const files: Memo['files'] = {};
    for (const [path, e] of tree) {
      // Only regular files are written: a link or a submodule in the tree is nothing of ours.
      if (!isWriterPath(path) || e.type !== 'blob' || e.mode !== '100644') continue;
      const file = join(this.dir, path);
      if (this.memo.files[path]?.sha !== e.sha || sizeOf(file) !== e.size) await this.writeBlob(e.sha, file);
      files[path] = { sha: e.sha, size: e.size };
    }
    this.saveMemo({ ...this.memo, commit: base, files, attributes: tree.has(ATTRIBUTES) });
  }

  /** Whether the files beside the clone are exactly those of the memo, at their sizes (nothing appended, nothing left over). */
  private filesAsMemo(writers: string): boolean {
    const names = readdirSync(writers);
    if (names.length !== Object.keys(this.memo.files).length) return false;
    return names.every((n) => this.memo.files[`writers/${n}`]?.size === sizeOf(join(writers, n)));
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

  /**
   * One commit of `paths` (as the files are: no filter) on top of `base`, by `git fast-import`:
   * one process, its few objects written loose (fastimport.unpackLimit), nothing read from
   * attributes, no hook. Its sha and each file's blob.
   */
  private async commit(base: string | null, paths: string[], message: string): Promise<{ commit: string; blobs: Record<string, string> }> {
    const files = paths.map((path) => ({ path, data: readFileSync(join(this.dir, path)) }));
    if (!this.memo.attributes) files.push({ path: ATTRIBUTES, data: Buffer.from(ATTRIBUTES_TEXT) });
    const who = (this.env.GIT_COMMITTER_NAME ?? 'aish').replace(/[<>\n]/g, '');
    const text = Buffer.from(message);
    const parts: Buffer[] = [Buffer.from(`reset ${SCRATCH}\n`)];
    files.forEach((f, i) => parts.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${f.data.length}\n`), f.data, Buffer.from('\n')));
    parts.push(
      Buffer.from(`commit ${SCRATCH}\nmark :${files.length + 1}\n`),
      Buffer.from(`committer ${who} <${AISH_EMAIL}> ${Math.floor(Date.now() / 1000)} +0000\ndata ${text.length}\n`),
      text,
      Buffer.from(`\n${base ? `from ${base}\n` : ''}${files.map((f, i) => `M 100644 :${i + 1} ${f.path}\n`).join('')}\n`),
      Buffer.from(`${files.map((_, i) => `get-mark :${i + 1}\n`).join('')}get-mark :${files.length + 1}\ndone\n`),
    );
    const out = await this.must(['-c', 'fastimport.unpackLimit=1000', 'fast-import', '--quiet', '--force', '--done'], 'git fast-import', {
      input: Buffer.concat(parts),
    });
    const shas = out.split('\n');
    const blobs: Record<string, string> = {};
    files.forEach((f, i) => (blobs[f.path] = shas[i]!));
    const commit = shas[files.length];
    if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) throw new AishError('memory sync: git fast-import made no commit');
    return { commit, blobs };
  }

  /**
   * Commit `paths` (relative, written beside the clone) on top of `base` with `message`, and push;
   * 'rejected' when the remote moved meanwhile.
   */
  async commitAndPush(base: string | null, paths: string[], message: string): Promise<'pushed' | 'rejected'> {
    const { commit, blobs } = await this.commit(base, paths, message);
    // A remote on this disk is pushed to by a receive-pack git starts here, without our settings
    // (it reads the user's config and the remote's): its hooks are turned off on its command line.
    const receive = localPath(this.remote) !== undefined ? [`--receive-pack=git -c core.hooksPath=${devNull} receive-pack`] : [];
    const r = await this.git(['push', '--quiet', '--porcelain', ...receive, 'origin', `${commit}:refs/heads/${BRANCH}`]);
    if (r.code === 0) {
      // main is our commit now, and the files beside the clone are what it holds: the next sync
      // neither checks it nor writes them again.
      const files = { ...this.memo.files };
      for (const path of paths) files[path] = { sha: blobs[path]!, size: sizeOf(join(this.dir, path)) };
      this.saveMemo({ checked: commit, commit, files, attributes: true });
      return 'pushed';
    }
    if (/\[rejected\]|non-fast-forward|fetch first|stale info|cannot lock ref|failed to update ref/i.test(r.stdout + r.stderr))
      return 'rejected';
    const fix = /checked out branch|currently checked out/i.test(r.stdout + r.stderr)
      ? ' — the remote is a repository with a work tree; sync pushes only to a bare one (git init --bare)'
      : '';
    throw new AishError(`memory sync: push to ${shownUrl(this.remote)} failed: ${gitSaid(r)}${fix}`);
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

function readMemo(path: string): Memo {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<Memo> | null;
    if (v && typeof v === 'object' && v.files && typeof v.files === 'object') return v as Memo;
  } catch {
    // none yet, or unreadable: everything is checked and written again
  }
  return { files: {} };
}
