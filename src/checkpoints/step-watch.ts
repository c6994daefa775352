/**
 * The after-the-fact check of one step nobody approved: after it, the tree is compared with what
 * it was (watch.ts), and what the step must not do unasked — change, delete or re-mode anything
 * that existed, or create a file that configures programs — is put back at once, from the
 * checkpoint or the side copies. The step's own result is kept in memory, so the user can still
 * keep it. Creating ordinary new files is never judged.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin, realPath } from '../util/paths';
import { joinZ, splitZ, type Git } from './git';
import type { Checkpoint } from './types';
import {
  configuresPrograms,
  throughDirs,
  entryOf,
  sideCopies,
  readState,
  writeState,
  writeInPlace,
  makeParents,
  dropMadeDirs,
  sameContent,
  inPlace,
  sideData,
  type Listing,
  type PathState,
} from './watch';
import { listTree, type Walked } from './walk';

export interface StepChange {
  path: string;
  /** `created`: a new file that configures programs. */
  what: 'changed' | 'deleted' | 'created' | 'mode';
}

export interface StepVerdict {
  /** What the step did that was judged, now put back (except `notRestored`). */
  changes: StepChange[];
  /** Changed paths the checkpoint and the side copies did not hold: left as the step left them. */
  notRestored: string[];
  /** Put the step's changes in place again (the user keeps them); null: too large to hold. */
  keep: (() => void) | null;
}

/** The checkpoint's side of a put-back; each call goes through the shadow's queue. */
interface ShadowOps {
  /** path → blob id of each of `paths` that the checkpoint holds as a file or link. */
  blobs(paths: string[]): Promise<Map<string, string>>;
  /** Write `paths` back as the checkpoint has them, owner-only (the caller sets the bits). */
  checkout(paths: string[]): Promise<void>;
}

/** The step's result kept for "keep these changes?", at most this many bytes. */
const KEEP_BYTES = 64 * 1024 * 1024;

function shadowOps(git: Git, commit: string, serial: <T>(fn: () => Promise<T>) => Promise<T>): ShadowOps {
  return {
    blobs: (paths) =>
      serial(async () => {
        const out = new Map<string, string>();
        // Only the paths asked about, unless there are many (then one listing of the whole tree).
        const only = paths.length <= 200 ? ['--', ...paths] : [];
        for (const line of splitZ((await git.run(['ls-tree', '-r', '-z', '--full-tree', commit, ...only], { literal: true })).stdout)) {
          // "<mode> <type> <oid>\t<path>"
          const tab = line.indexOf('\t');
          const [, type, oid] = line.slice(0, tab).split(' ');
          if (type === 'blob') out.set(line.slice(tab + 1), oid!);
        }
        return out;
      }),
    checkout: (paths) =>
      serial(async () => {
        if (paths.length)
          await git.run(['checkout', commit, '--pathspec-from-file=-', '--pathspec-file-nul'], {
            input: joinZ(paths),
            literal: true,
            umask: 0o077,
          });
      }),
  };
}

/** What differs by `lstat` (content changes still to be confirmed), and new program-configuring files. */
function compare(before: Listing, after: Listing, sealed?: ReadonlySet<string>): StepChange[] {
  const out: StepChange[] = [];
  for (const [path, b] of before) {
    const a = after.get(path);
    if (!a) out.push({ path, what: 'deleted' });
    else if (a.kind !== b.kind) out.push({ path, what: 'changed' });
    else if (b.kind === 'dir') {
      if (a.mode !== b.mode) out.push({ path, what: 'mode' });
    } else if (a.ino !== b.ino || a.size !== b.size || a.mtime !== b.mtime || a.ctime !== b.ctime) out.push({ path, what: 'changed' });
    else if (a.mode !== b.mode) out.push({ path, what: 'mode' });
  }
  for (const [path, a] of after)
    if (!before.has(path) && (a.kind !== 'dir' || sealed?.has(path)) && configuresPrograms(path)) out.push({ path, what: 'created' });
  return out;
}

const depth = (p: string) => p.split('/').length;

/** Stands for the new paths past what the walk lists (MAX_PAST past its limit). */
const MANY = '(more new files than the check lists)';

/** What judges one step after it ran: the project's watch, the one outside it, or both. */
export interface StepJudge {
  /** Null when the step only did what a step may do unasked; else what it did was put back. */
  check(): Promise<StepVerdict | null>;
  /**
   * Files that existed and that a put-back could not bring back (over the checkpoint's size cap,
   * past the side copies' budget), as absolute paths: the sandbox keeps them read-only.
   */
  unrestorable(): string[];
}

/** Read-only binds asked of the sandbox for one step, at most. */
const MAX_PROTECTED = 256;

export class StepWatch implements StepJudge {
  private readonly dirModes = new Map<string, number>();

  constructor(
    private readonly dir: string,
    private readonly before: Listing,
    /** The walk stopped at its limit: what lay past it is not judged. */
    readonly complete: boolean,
    private readonly side: ReadonlyMap<string, PathState>,
    /** The same walk again, after the step; `past`: going on past the limit for new paths that are judged. */
    private readonly relist: (past: boolean) => Walked,
    private readonly ops: ShadowOps,
    /** Files neither the checkpoint nor a side copy holds. */
    private readonly unheld: readonly string[] = [],
  ) {
    for (const [p, e] of before) if (e.kind === 'dir') this.dirModes.set(p, e.mode);
  }

  unrestorable(): string[] {
    return this.unheld.slice(0, MAX_PROTECTED).map((p) => join(this.dir, p));
  }

  /** Files outside the tree that its links lead to (a step without a sandbox writes through them). */
  linkedOut(): string[] {
    const out: string[] = [];
    for (const [rel, e] of this.before) {
      if (e.kind !== 'link' || out.length >= MAX_PROTECTED) continue;
      const target = realPath(join(this.dir, rel));
      if (!isWithin(target, this.dir) && entryOf(target)?.kind === 'file') out.push(target);
    }
    return out;
  }

  async check(): Promise<StepVerdict | null> {
    // The walk before was complete: past the limit now is what the step made; what it planted there is looked for too.
    const { listing: now, complete, overflow, sealed } = this.relist(this.complete);
    // A walk cut short at its limit may stop before paths it saw the first time: look at those.
    if (!complete || !this.complete)
      for (const p of this.before.keys()) {
        const e = now.has(p) ? null : entryOf(join(this.dir, p));
        if (e) now.set(p, e);
      }
    const candidates = compare(this.before, now, sealed);
    // More new files that configure programs than can be listed: those past the list cannot be put back.
    if (overflow) candidates.push({ path: MANY, what: 'created' });
    const back = candidates.filter((c) => (c.what === 'changed' || c.what === 'deleted') && this.before.get(c.path)?.kind !== 'dir');
    const blobs = back.length ? await this.ops.blobs(back.map((c) => c.path)) : new Map<string, string>();
    const changes = candidates.filter((c) => {
      const was = this.before.get(c.path);
      if (c.what !== 'changed' || !was || was.kind !== now.get(c.path)?.kind) return true;
      if (!sameContent(this.dir, c.path, was, this.side, blobs)) return true;
      // The same bytes (rewritten as they were, or touched): only a change of bits is left.
      if (was.kind !== 'file' || now.get(c.path)?.mode === was.mode) return false;
      c.what = 'mode';
      return true;
    });
    if (!changes.length) return null;
    const budget = { left: KEEP_BYTES };
    const after = new Map<string, PathState>();
    let keepable = true;
    for (const c of changes) {
      if (c.path === MANY) {
        keepable = false;
        continue;
      }
      const s = throughDirs(this.dir, c.path) ? readState(join(this.dir, c.path), budget) : { kind: 'absent' as const };
      // A new directory judged whole: what it holds is not read, so it cannot be put back in place.
      if (s && !(c.what === 'created' && s.kind === 'dir')) after.set(c.path, s);
      else keepable = false;
    }
    const notRestored = await this.putBack(changes, blobs);
    return { changes, notRestored, keep: keepable ? () => this.reapply(after) : null };
  }

  private async putBack(changes: StepChange[], blobs: Map<string, string>): Promise<string[]> {
    const notRestored: string[] = [];
    const fromCheckpoint: string[] = [];
    const attempt = (path: string, fn: () => void) => {
      try {
        fn();
      } catch {
        notRestored.push(path);
      }
    };
    // New files out first, with the directories made for them that are left empty.
    for (const c of changes.filter((x) => x.what === 'created')) {
      if (c.path === MANY) {
        notRestored.push(MANY);
        continue;
      }
      attempt(c.path, () => {
        writeState(this.dir, c.path, { kind: 'absent' }, this.dirModes);
        dropMadeDirs(this.dir, c.path, this.before);
      });
    }
    const back = changes.filter((x) => x.what !== 'created').sort((a, b) => depth(a.path) - depth(b.path));
    for (const c of back) {
      const was = this.before.get(c.path)!;
      const abs = join(this.dir, c.path);
      if (c.what === 'mode') attempt(c.path, () => was.kind !== 'link' && throughDirs(this.dir, c.path) && chmodSync(abs, was.mode));
      else if (was.kind === 'dir') attempt(c.path, () => writeState(this.dir, c.path, { kind: 'dir', mode: was.mode }, this.dirModes));
      else if (inPlace(was, entryOf(abs), this.side.get(c.path)))
        attempt(c.path, () => throughDirs(this.dir, c.path) && writeInPlace(abs, sideData(this.side.get(c.path)), was.mode));
      else if (this.side.has(c.path)) attempt(c.path, () => writeState(this.dir, c.path, this.side.get(c.path)!, this.dirModes));
      else if (blobs.has(c.path))
        attempt(c.path, () => {
          writeState(this.dir, c.path, { kind: 'absent' }, this.dirModes);
          // The directories above it, as they were (removed, or replaced by a file).
          makeParents(this.dir, c.path, this.dirModes);
          fromCheckpoint.push(c.path);
        });
      else notRestored.push(c.path);
    }
    try {
      await this.ops.checkout(fromCheckpoint);
      for (const p of fromCheckpoint) {
        const was = this.before.get(p)!;
        if (was.kind === 'file') chmodSync(join(this.dir, p), was.mode);
      }
    } catch {
      notRestored.push(...fromCheckpoint);
    }
    return notRestored;
  }

  private reapply(after: ReadonlyMap<string, PathState>): void {
    // What the step removed goes first (deepest first), then the rest from the top down.
    const gone = [...after].filter(([, st]) => st.kind === 'absent').sort(([a], [b]) => depth(b) - depth(a));
    const made = [...after].filter(([, st]) => st.kind !== 'absent').sort(([a], [b]) => depth(a) - depth(b));
    for (const [path, state] of [...gone, ...made]) writeState(this.dir, path, state, this.dirModes);
  }
}

/** The watch of one step, from the snapshot just taken (`ignored` as git lists it: a directory as `dir/`). */
export function startWatch(
  git: Git,
  checkpoint: Checkpoint,
  ignored: string[],
  /** Files the snapshot left out for their size. */
  large: readonly string[],
  isOurs: (abs: string) => boolean,
  serial: <T>(fn: () => Promise<T>) => Promise<T>,
): StepWatch {
  const dir = git.workTree;
  const ignoredDirs = new Set(ignored.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1)));
  const ignoredFiles = new Set(ignored.filter((p) => !p.endsWith('/')));
  const skip = { ignoredDirs, ignoredFiles, isOurs };
  const { listing, complete, unheld } = listTree(dir, skip);
  // Not in the checkpoint: ignored files and directories, nested repositories, every `.git`.
  const side = sideCopies(dir, listing, unheld);
  const held = (rel: string) => (unheld.has(rel) ? side.has(rel) : !large.includes(rel));
  const lost = [...listing].filter(([rel, e]) => e.kind === 'file' && !held(rel)).map(([rel]) => rel);
  return new StepWatch(dir, listing, complete, side, (past) => listTree(dir, skip, past), shadowOps(git, checkpoint.commit, serial), lost);
}

/** A watch of places the checkpoint does not hold at all: every path comes back from its side copy. */
export function sideWatch(dir: string, list: (past: boolean) => Walked): StepWatch {
  const { listing, complete, unheld } = list(false);
  const none: ShadowOps = { blobs: () => Promise.resolve(new Map()), checkout: () => Promise.resolve() };
  const side = sideCopies(dir, listing, unheld);
  const lost = [...listing].filter(([rel, e]) => e.kind === 'file' && !side.has(rel)).map(([rel]) => rel);
  return new StepWatch(dir, listing, complete, side, list, none, lost);
}
