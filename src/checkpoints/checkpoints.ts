/**
 * Checkpoints: snapshots of a working tree taken before a step that may write, kept in a shadow git
 * repository under the data dir (never the user's own .git), so `:restore` can undo the step.
 * docs/checkpoints.md has the design and the measured costs.
 */
import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, parse } from 'node:path';
import { AishError, errnoCode } from '../util/errors';
import { realPath } from '../util/paths';
import { resolveTarget } from './format';
import { Git, joinZ, splitZ } from './git';
import { formatMessage, parseLog, parseMessage } from './message';
import { aboutToCreate, applyModes } from './restore-modes';
import { beforeSince, noteReuse } from './reuse-log';
import { scanTree } from './scan';
import { startWatch, type StepWatch } from './step-watch';
import { ensureShadow, housekeeping, inside, REF, shadowDirFor, shadowExists } from './shadow';
import { MAX_FILE_BYTES, MAX_NEW_FILES, SHORT_ID, type Checkpoint, type RestoreResult, type Snap, type Unless } from './types';

export interface CheckpointsOptions {
  /** Files larger than this are left out (default MAX_FILE_BYTES). */
  maxFileBytes?: number;
  /** The git program (default `git` on PATH). */
  git?: string;
}

/** Where all checkpoints live: `<data dir>/checkpoints`, a shadow repository per directory. */
export function checkpointsRoot(dataDir: string): string {
  return join(dataDir, 'checkpoints');
}

/** What a tree holds beyond its contents: two checkpoints with the same tree differ when this does. */
const stateKey = (c: Pick<Checkpoint, 'modes' | 'dirs'>) => JSON.stringify([c.modes ?? null, c.dirs ?? []]);

export class Checkpoints {
  private readonly dirOf: () => string;
  private readonly maxFileBytes: number;
  private readonly gitBin: string;
  /** One operation at a time per instance: they share the shadow's index. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** `<data dir>/checkpoints`. */
    readonly root: string,
    /** The working tree (aish's directory); a function when it can change (`:cd`). */
    dir: string | (() => string),
    opts: CheckpointsOptions = {},
  ) {
    this.dirOf = typeof dir === 'string' ? () => dir : dir;
    this.maxFileBytes = opts.maxFileBytes ?? MAX_FILE_BYTES;
    this.gitBin = opts.git ?? 'git';
  }

  /** The working tree now, as its real path. */
  get dir(): string {
    // As the file system names it, so `~/x` and a symlink to it share checkpoints.
    return realPath(this.dirOf());
  }

  /** Where this directory's shadow repository is (it may not exist yet). */
  get shadowDir(): string {
    return shadowDirFor(this.root, this.dir);
  }

  /**
   * Snapshot the tree before a step. Null when the directory is not one to snapshot (the file
   * system root, the home directory, inside the checkpoints themselves); failures are thrown as
   * one-line AishErrors. Nothing changed since the newest checkpoint: that one is returned, `reused`.
   */
  snapshot(label: string, step?: string): Promise<Checkpoint | null> {
    return this.serial(async () => (await this.snap(this.dir, label, step))?.checkpoint ?? null);
  }

  /** The tree before the first step that may have written at or after `since` (ISO), or null (reuse-log.ts). */
  before(since: string): Promise<Checkpoint | null> {
    return this.serial(async () => beforeSince(this.git(this.dir).gitDir, await this.listIn(this.dir), since));
  }

  /** Newest first. No shadow repository yet: none, and no git is run. */
  list(): Promise<Checkpoint[]> {
    return this.serial(() => this.listIn(this.dir));
  }

  /**
   * Put the tree back as it was at checkpoint `id` (default: the newest): an id, the start of one,
   * or a list position (see resolveTarget; `hint` names the list in its errors). The current state
   * is checkpointed first, so the restore itself can be undone.
   */
  restore(id?: string, hint = 'aish checkpoints list'): Promise<RestoreResult> {
    return this.serial(async () => {
      const dir = this.dir;
      const list = await this.listIn(dir);
      if (list.length === 0) throw new AishError(`no checkpoints for ${dir} — nothing to restore`);
      return this.restoreTo(dir, resolveTarget(list, id, hint));
    });
  }

  /**
   * The files that differ now from checkpoint `c`: what restoring it would write back or remove
   * (files over the size cap and nested repositories are never restored, so not counted). Nothing
   * is recorded.
   */
  changedSince(c: Checkpoint): Promise<string[]> {
    return this.serial(async () => {
      const dir = this.dir;
      const git = this.git(dir);
      if (!shadowExists(git.gitDir)) throw new AishError(`no checkpoints for ${dir}`);
      const { tree, large } = await this.stage(git, dir);
      const left = new Set(large);
      return (await this.treeDiff(git, c.commit, tree)).filter((d) => !left.has(d.path)).map((d) => d.path);
    });
  }

  /** Snapshot before a step nobody approved, and what judges it after (step-watch.ts); null as for snapshot(). */
  watch(label: string, step?: string): Promise<StepWatch | null> {
    return this.serial(async () => {
      const s = await this.snap(this.dir, label, step);
      const ours = (p: string) => inside(this.root, p) !== null;
      return s?.checkpoint ? startWatch(this.git(this.dir), s.checkpoint, s.ignored, s.large, ours, (f) => this.serial(f)) : null;
    });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private git(dir: string): Git {
    return new Git(shadowDirFor(this.root, dir), dir, this.gitBin);
  }

  private async listIn(dir: string): Promise<Checkpoint[]> {
    const git = this.git(dir);
    if (!shadowExists(git.gitDir)) return [];
    const r = await git.run(['log', '-z', '--format=%H%x00%B', '--ignore-missing', REF]);
    return parseLog(r.stdout);
  }

  private async snap(dir: string, label: string, step: string | undefined, unless?: Unless): Promise<Snap | null> {
    if (dir === parse(dir).root || dir === realPath(homedir()) || inside(this.root, dir) !== null) return null;
    try {
      if (!statSync(dir).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
      accessSync(dir, constants.R_OK | constants.X_OK);
    } catch (err) {
      const code = errnoCode(err);
      throw new AishError(
        `cannot snapshot ${dir}: ${code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : 'permission denied'}`,
      );
    }
    const git = this.git(dir);
    await ensureShadow(git, this.root, dir);
    const { tree, large, unreadable } = await this.stage(git, dir);
    const scan = await scanTree(git, dir, large, (p) => inside(this.root, p) !== null);
    const key = stateKey(scan);
    if (unless && tree === unless.tree && key === unless.key) return { checkpoint: null, large, ignored: scan.ignored };

    const [ids = '', message = ''] = (await git.run(['for-each-ref', '--format=%(objectname) %(tree)%00%(contents)', REF])).stdout.split(
      '\0',
    );
    const [head, headTree] = ids.split(' ');
    const newest = head ? parseMessage(head, message) : null;
    if (newest && headTree === tree && stateKey(newest) === key) {
      noteReuse(git.gitDir, newest.commit);
      return { checkpoint: { ...newest, reused: true }, large, ignored: scan.ignored };
    }
    const record = {
      ts: new Date().toISOString(),
      label,
      dir,
      ...(step && { step }),
      ...(large.length + unreadable > 0 && { skipped: large.length + unreadable }),
      modes: scan.modes,
      ...(scan.dirs.length > 0 && { dirs: scan.dirs }),
      ...(Object.keys(scan.left).length > 0 && { left: scan.left }),
    };
    const parent = head ? ['-p', head] : [];
    const commit = (
      await git.run(['commit-tree', '--no-gpg-sign', tree, ...parent, '-F', '-'], { input: formatMessage(record) })
    ).stdout.trim();
    await git.run(['update-ref', REF, commit, ...(head ? [head] : [])]);
    await housekeeping(git);
    return { checkpoint: { id: commit.slice(0, SHORT_ID), commit, ...record }, large, ignored: scan.ignored };
  }

  /**
   * Put the tree as it is now into the shadow's index and write it: the tree a snapshot would
   * record. Files over the cap and nested repositories are left out, as in every snapshot.
   */
  private async stage(git: Git, dir: string): Promise<{ tree: string; large: string[]; unreadable: number }> {
    // New and changed files since the last snapshot (the index keeps stat data, so this is cheap).
    const changed = splitZ((await git.run(['ls-files', '-z', '--others', '--modified', '--exclude-standard'])).stdout);
    if (changed.length > MAX_NEW_FILES) {
      throw new AishError(
        `cannot snapshot ${dir}: ${changed.length} new or changed files (over ${MAX_NEW_FILES}) — is a .gitignore missing?`,
      );
    }
    // Another repository inside the tree is listed as `dir/`: the user's, like their .git, left out.
    const nested = changed.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
    const large = changed.filter((p) => !p.endsWith('/') && this.tooLarge(join(dir, p)));
    if (large.length)
      await git.run(['rm', '--cached', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        input: joinZ(large),
        literal: true,
      });
    const specs = ['.', ...[...large, ...nested].map((p) => `:(exclude,literal)${p}`)];
    const add = await git.run(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      input: joinZ(specs),
      allow: [1],
    });
    const unreadable = add.stderr.split('\n').filter((l) => /^error: open\(/.test(l)).length;
    if (add.code !== 0 && unreadable === 0) throw new AishError(`checkpoint failed: git add: ${add.stderr.split('\n')[0] ?? ''}`);
    const tree = (await git.run(['write-tree'])).stdout.trim();
    return { tree, large, unreadable };
  }

  /** Paths that differ from tree-ish `from` to `to`; `added`: only in `to`. Nested repositories are their own business. */
  private async treeDiff(git: Git, from: string, to: string): Promise<Array<{ path: string; added: boolean }>> {
    const diff = splitZ((await git.run(['diff-tree', '-r', '-z', '--no-renames', from, to])).stdout);
    const out: Array<{ path: string; added: boolean }> = [];
    for (let i = 0; i + 1 < diff.length; i += 2) {
      // ":<old mode> <new mode> <old oid> <new oid> <status>", then the path.
      const [oldMode, newMode, , , status] = diff[i]!.slice(1).split(' ');
      if (oldMode === '160000' || newMode === '160000') continue;
      out.push({ path: diff[i + 1]!, added: status === 'A' });
    }
    return out;
  }

  private tooLarge(path: string): boolean {
    // lstat: a symlink is stored as the link, whatever it points to. Deleted: nothing to read.
    const st = lstatSync(path, { throwIfNoEntry: false });
    // A fifo, socket or device cannot be stored: left out like a large file, not a failed snapshot.
    return st !== undefined && (st.size > this.maxFileBytes || !(st.isFile() || st.isSymbolicLink() || st.isDirectory()));
  }

  /**
   * Checkpoint the present, then apply the difference between it and the target: files the present
   * has and the target does not are removed, the rest of the difference is written back (created
   * owner-only, then given the recorded bits), and every file and directory gets its recorded
   * permission bits back; empty directories are recreated. Ignored files, files over the cap,
   * nested repositories and the user's .git are not in either tree, so they are never touched:
   * the target's record names them (RestoreResult.checkpoint.left).
   */
  private async restoreTo(dir: string, target: Checkpoint): Promise<RestoreResult> {
    const git = this.git(dir);
    const targetTree = (await git.run(['rev-parse', `${target.commit}^{tree}`])).stdout.trim();
    // The present, unless it already is the target: then there is nothing to do or to undo.
    const now = await this.snap(dir, `restore ${target.id}`, undefined, { tree: targetTree, key: stateKey(target) });
    if (!now) throw new AishError(`cannot restore ${dir}: aish does not checkpoint this directory`);
    const before = now.checkpoint;
    const result = { checkpoint: target, changed: 0, written: 0, removed: 0, keptLarge: 0, modes: 0, dirs: 0, before };
    if (!before || before.commit === target.commit) return result;

    const large = new Set(now.large);
    const remove: string[] = [];
    const write: string[] = [];
    for (const { path, added } of await this.treeDiff(git, target.commit, before.commit)) {
      if (large.has(path)) result.keptLarge++;
      else if (added) remove.push(path);
      else write.push(path);
    }
    const fresh = aboutToCreate(dir, write);
    let set = { modes: 0, dirs: 0 };
    try {
      if (remove.length)
        await git.run(['rm', '-q', '-f', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
          input: joinZ(remove),
          literal: true,
        });
      // With a record of modes, files are created private and opened up to their bits after: a 0600
      // file is never readable by others, not even for a moment.
      if (write.length)
        await git.run(['checkout', target.commit, '--pathspec-from-file=-', '--pathspec-file-nul'], {
          input: joinZ(write),
          literal: true,
          ...(target.modes && { umask: 0o077 }),
        });
      if (target.modes) set = await applyModes(git, dir, target.commit, target.modes, target.dirs ?? [], fresh);
    } catch (err) {
      // git writes files in place: a full disk leaves some restored, some cut short. The state
      // before is checkpointed, so say where it is rather than let a partial restore pass.
      const why = (err instanceof Error ? err.message.split('\n')[0]! : String(err)).replace(/^checkpoint failed: /, '');
      throw new AishError(
        `restore of ${dir} stopped part-way (${why}) — the files as they were before are checkpoint ${before.id}: :restore ${before.id}`,
      );
    }
    const changed = remove.length + write.length + set.modes + set.dirs;
    return { ...result, ...set, changed, written: write.length, removed: remove.length };
  }
}
