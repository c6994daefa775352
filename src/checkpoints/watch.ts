/**
 * What the after-the-fact check of a step compares: one path as `lstat` sees it (the walk is
 * walk.ts), the contents of what the checkpoint does not hold (small, so a change can be put
 * back), and how one path is written back.
 * docs/checkpoints.md, "The after-the-fact check", has the rules.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  rmdirSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

export interface Entry {
  kind: 'file' | 'link' | 'dir' | 'other';
  mode: number;
  size: bigint;
  mtime: bigint;
  ctime: bigint;
  ino: bigint;
  /** Hard links to it: more than one, and a write through this name changes a file elsewhere too. */
  nlink: bigint;
}

/** Relative path → what was there. */
export type Listing = Map<string, Entry>;

/** Side copies of files the checkpoint does not hold: each at most this, all together at most SIDE_TOTAL. */
const SIDE_FILE = 1024 * 1024;
const SIDE_TOTAL = 16 * 1024 * 1024;

export function entryOf(abs: string): Entry | null {
  try {
    const st = lstatSync(abs, { bigint: true });
    const kind = st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
    return { kind, mode: Number(st.mode & 0o7777n), size: st.size, mtime: st.mtimeNs, ctime: st.ctimeNs, ino: st.ino, nlink: st.nlink };
  } catch {
    return null;
  }
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
 * Copies of what a put-back needs and the checkpoint lacks (ignored files, what is in ignored
 * directories that are not generated ones and in nested repositories, the `.git` program files),
 * and of hard-linked files (put back in place, so that the file's other names get it back too),
 * up to SIDE_FILE each and SIDE_TOTAL in all.
 */
export function sideCopies(dir: string, listing: Listing, unheld: ReadonlySet<string>): Map<string, PathState> {
  const out = new Map<string, PathState>();
  const budget = { left: SIDE_TOTAL };
  for (const [rel, e] of listing) {
    if (e.kind === 'dir' || e.kind === 'other' || !(unheld.has(rel) || (e.kind === 'file' && e.nlink > 1n))) continue;
    const s = readState(join(dir, rel), budget, SIDE_FILE);
    if (s) out.set(rel, s);
  }
  return out;
}

/**
 * Write `data` back into the file at `abs` itself, not a new file in its place: it was written
 * through one of its hard links, and its other names (outside the project, maybe) must get it back.
 */
export function writeInPlace(abs: string, data: Buffer, mode: number): void {
  const fd = openSync(abs, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW);
  try {
    writeSync(fd, data, 0, data.length, 0);
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
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

/**
 * After a planted file is removed: the directories made for it go too, while empty; a git
 * directory the step made (`git init` in a new folder) goes whole, with its objects.
 */
export function dropMadeDirs(dir: string, rel: string, before: Listing): void {
  const parts = rel.split('/');
  const git = parts.indexOf('.git');
  if (git >= 0) {
    const gitDir = parts.slice(0, git + 1).join('/');
    if (!before.has(gitDir) && throughDirs(dir, gitDir)) rmSync(join(dir, gitDir), { recursive: true, force: true });
  }
  for (let d = dirname(rel); d !== '.' && !before.has(d); d = dirname(d)) {
    if (!throughDirs(dir, d) || entryOf(join(dir, d))?.kind !== 'dir') continue;
    try {
      rmdirSync(join(dir, d));
    } catch {
      return; // it holds new files the step may make: they stay
    }
  }
}

const blobId = (data: Buffer): string => createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

/** Whether `rel` holds what it held before (a rewrite with the same bytes, a `touch`): null when unknown. */
export function sameContent(
  dir: string,
  rel: string,
  was: Entry,
  side: ReadonlyMap<string, PathState>,
  blobs: ReadonlyMap<string, string>,
): boolean | null {
  const abs = join(dir, rel);
  try {
    const now = was.kind === 'link' ? Buffer.from(readlinkSync(abs)) : was.kind === 'file' ? readFileSync(abs) : null;
    if (!now) return null;
    const copy = side.get(rel);
    if (copy?.kind === 'file') return copy.data.equals(now);
    if (copy?.kind === 'link') return copy.target === now.toString();
    const blob = blobs.get(rel);
    return blob === undefined ? null : blob === blobId(now);
  } catch {
    return null;
  }
}

export const sideData = (s: PathState | undefined): Buffer => (s?.kind === 'file' ? s.data : Buffer.alloc(0));

/** A hard-linked file the step wrote through (the same file still), with its copy from before. */
export const inPlace = (was: Entry, now: Entry | null, copy: PathState | undefined): boolean =>
  was.kind === 'file' && was.nlink > 1n && now?.kind === 'file' && now.ino === was.ino && copy?.kind === 'file';
