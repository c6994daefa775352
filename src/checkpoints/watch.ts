/**
 * What the after-the-fact check of a step compares: every path of the tree as `lstat` sees it (a
 * walk that also enters ignored files and the program files of the repository's `.git`, and skips
 * what the project declares generated: ignored directories), the contents of what the checkpoint
 * does not hold (small, so a change can be put back), and how one path is written back.
 * docs/checkpoints.md, "The after-the-fact check", has the rules.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

export interface Entry {
  kind: 'file' | 'link' | 'dir' | 'other';
  mode: number;
  size: bigint;
  mtime: bigint;
  ctime: bigint;
  ino: bigint;
}

/** Relative path → what was there. */
export type Listing = Map<string, Entry>;

/** In `.git`: what makes git run programs or look elsewhere. The rest of `.git` is git's bookkeeping. */
const GIT_PROGRAM_PATHS = ['config', 'config.worktree', 'commondir', 'hooks', 'info', 'objects/info/alternates'];

/** Paths listed per walk, at most; past this the walk stops (and says so). */
const MAX_ENTRIES = 200_000;

/** Side copies of files the checkpoint does not hold: each at most this, all together at most SIDE_TOTAL. */
const SIDE_FILE = 1024 * 1024;
const SIDE_TOTAL = 16 * 1024 * 1024;

export interface WalkSkip {
  /** Ignored directories (relative, no trailing slash): generated, never judged. */
  ignoredDirs: ReadonlySet<string>;
  /** aish's own checkpoints, when they live inside the tree. */
  isOurs: (abs: string) => boolean;
}

export function entryOf(abs: string): Entry | null {
  try {
    const st = lstatSync(abs, { bigint: true });
    const kind = st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
    return { kind, mode: Number(st.mode & 0o7777n), size: st.size, mtime: st.mtimeNs, ctime: st.ctimeNs, ino: st.ino };
  } catch {
    return null;
  }
}

/** The tree as it is now. `complete` is false when the walk stopped at MAX_ENTRIES. */
export function listTree(dir: string, skip: WalkSkip): { listing: Listing; complete: boolean } {
  const listing: Listing = new Map();
  let complete = true;
  // deep: inside `.git`, where nothing is skipped.
  const add = (rel: string, deep: boolean): void => {
    const abs = join(dir, rel);
    if (!deep && (skip.ignoredDirs.has(rel) || skip.isOurs(abs))) return;
    if (listing.size >= MAX_ENTRIES) {
      complete = false;
      return;
    }
    const e = entryOf(abs);
    if (!e) return;
    listing.set(rel, e);
    // A repository nested in the tree is its own business: seen as a directory, not entered.
    if (e.kind !== 'dir' || (!deep && existsSync(join(abs, '.git')))) return;
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return; // unreadable: seen as it is, its contents not
    }
    for (const name of names) add(`${rel}/${name}`, deep);
  };
  for (const name of readdirSync(dir)) {
    if (name !== '.git') add(name, false);
    else if (entryOf(join(dir, name))?.kind === 'dir')
      for (const p of GIT_PROGRAM_PATHS)
        if (throughDirs(dir, `.git/${p}`)) add(`.git/${p}`, true);
        else add(name, false); // a worktree's `.git` file, naming its repository
  }
  return { listing, complete };
}

/**
 * A path that configures programs: hidden by the dot convention (a dotfile or anything in a
 * dot-directory, at any depth: `.npmrc`, `.envrc`, `.github/workflows/x.yml`, `.cargo/config.toml`)
 * or in the repository's `.git`. A new one is judged like a change to an existing file.
 */
export function configuresPrograms(rel: string): boolean {
  return rel.split('/').some((part) => part.startsWith('.'));
}

/** One path's state: what the check puts back, or what the step left (to keep after all). */
export type PathState =
  { kind: 'file'; data: Buffer; mode: number } | { kind: 'link'; target: string } | { kind: 'dir'; mode: number } | { kind: 'absent' };

/** Read a path's state; null when it cannot be read or `budget` (bytes left) runs out. */
export function readState(abs: string, budget: { left: number }, perFile = Infinity): PathState | null {
  const e = entryOf(abs);
  if (!e) return { kind: 'absent' };
  try {
    if (e.kind === 'link') return { kind: 'link', target: readlinkSync(abs) };
    if (e.kind === 'dir') return { kind: 'dir', mode: e.mode };
    if (e.kind !== 'file' || e.size > BigInt(Math.min(perFile, budget.left))) return null;
    const data = readFileSync(abs);
    budget.left -= data.length;
    return { kind: 'file', data, mode: e.mode };
  } catch {
    return null;
  }
}

/**
 * Copies of what a put-back needs and the checkpoint lacks: ignored files (outside ignored
 * directories) and the `.git` program files, up to SIDE_FILE each and SIDE_TOTAL in all.
 */
export function sideCopies(dir: string, listing: Listing, inCheckpoint: (rel: string) => boolean): Map<string, PathState> {
  const out = new Map<string, PathState>();
  const budget = { left: SIDE_TOTAL };
  for (const [rel, e] of listing) {
    if (e.kind === 'dir' || e.kind === 'other' || inCheckpoint(rel)) continue;
    const s = readState(join(dir, rel), budget, SIDE_FILE);
    if (s) out.set(rel, s);
  }
  return out;
}

/** Remove what is at `abs` now, whatever it is. */
function clear(abs: string): void {
  rmSync(abs, { recursive: true, force: true });
}

/** The directories above `rel`, top down. */
const parents = (rel: string): string[] => {
  const out: string[] = [];
  for (let d = dirname(rel); d !== '.'; d = dirname(d)) out.unshift(d);
  return out;
};

/**
 * Whether every directory above `rel` is a real directory. A step can turn one into a link to a
 * place outside the project; nothing aish writes or removes may go through it.
 */
export function throughDirs(dir: string, rel: string): boolean {
  return parents(rel).every((d) => entryOf(join(dir, d))?.kind === 'dir');
}

/** Make the directories above `rel` real directories again (a file or link there is removed, not followed). */
export function makeParents(dir: string, rel: string, modes: ReadonlyMap<string, number>): void {
  for (const d of parents(rel)) {
    const abs = join(dir, d);
    const e = entryOf(abs);
    if (e?.kind === 'dir') continue;
    if (e) clear(abs);
    mkdirSync(abs, { mode: 0o700 });
    chmodSync(abs, modes.get(d) ?? 0o700);
  }
}

/** Put `state` at `rel` (files are written owner-only, then given their bits). */
export function writeState(dir: string, rel: string, state: PathState, modes: ReadonlyMap<string, number>): void {
  const abs = join(dir, rel);
  if (!throughDirs(dir, rel)) {
    // Under a link or a file now: `rel` is not there to remove, and must not be reached through it.
    if (state.kind === 'absent') return;
    makeParents(dir, rel, modes);
  }
  const now = entryOf(abs);
  if (state.kind === 'dir' && now?.kind === 'dir') {
    chmodSync(abs, state.mode);
    return;
  }
  if (now) clear(abs);
  if (state.kind === 'absent') return;
  makeParents(dir, rel, modes);
  if (state.kind === 'dir') {
    mkdirSync(abs, { mode: 0o700 });
    chmodSync(abs, state.mode);
  } else if (state.kind === 'link') symlinkSync(state.target, abs);
  else {
    // The path was just cleared: `wx` fails rather than follow anything put there since.
    writeFileSync(abs, state.data, { mode: 0o600, flag: 'wx' });
    chmodSync(abs, state.mode);
  }
}
