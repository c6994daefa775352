/**
 * What git does not keep of a tree, read at snapshot time so a restore can put it back or name it:
 * permission bits (git keeps only "executable or not"), directories with nothing captured in them,
 * and what the snapshot left out (ignored, over the size cap, nested repositories, unreadable).
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitZ, type Git } from './git';
import { LEFT_EXAMPLES, MAX_DIRS, MAX_MODE_EXCEPTIONS, type LeftGroup, type LeftOut, type ModeRecord } from './types';

export interface TreeScan {
  modes: ModeRecord;
  dirs: string[];
  left: LeftOut;
  /** Every ignored path as git lists it (a directory once, as `dir/`). */
  ignored: string[];
}

function group(paths: string[]): LeftGroup | undefined {
  return paths.length ? { n: paths.length, paths: paths.slice(0, LEFT_EXAMPLES) } : undefined;
}

function commonest(values: number[], fallback: number): number {
  const counts = new Map<number, number>();
  let best = fallback;
  let most = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > most) [best, most] = [v, c];
  }
  return best;
}

function perm(path: string): { bits: number; file: boolean } | null {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return null; // a link's own mode means nothing
    return { bits: st.mode & 0o7777, file: st.isFile() };
  } catch {
    return null; // gone since git listed it
  }
}

/** Permission bits of `files` and their directories (and `extraDirs`), as a compact record. */
function readModes(dir: string, files: string[], extraDirs: string[]): ModeRecord {
  const plain: Array<[string, number]> = [];
  const exec: Array<[string, number]> = [];
  const dirs = new Set<string>();
  const withParents = (from: string) => {
    for (let d = from; d !== '.' && !dirs.has(d); d = dirname(d)) dirs.add(d);
  };
  for (const d of extraDirs) withParents(d);
  for (const f of files) {
    withParents(dirname(f));
    const p = perm(join(dir, f));
    if (p?.file) (p.bits & 0o100 ? exec : plain).push([f, p.bits]);
  }
  const dirModes: Array<[string, number]> = [];
  for (const d of dirs) {
    const p = perm(join(dir, d));
    if (p) dirModes.push([`${d}/`, p.bits]);
  }
  const rec: ModeRecord = {
    f: commonest(
      plain.map(([, b]) => b),
      0o644,
    ),
    x: commonest(
      exec.map(([, b]) => b),
      0o755,
    ),
    d: commonest(
      dirModes.map(([, b]) => b),
      0o755,
    ),
    p: {},
  };
  let n = 0;
  for (const [list, want] of [
    [plain, rec.f],
    [exec, rec.x],
    [dirModes, rec.d],
  ] as const) {
    for (const [path, bits] of list) {
      if (bits === want) continue;
      if (++n > MAX_MODE_EXCEPTIONS) return { ...rec, p: null };
      rec.p![path] = bits;
    }
  }
  return rec;
}

/** Directories a walk of untracked directories looks at, at most, per snapshot. */
const MAX_WALK = 5_000;

/**
 * An untracked directory as git lists it (`deep/`, collapsed): its innermost directories are what
 * a restore recreates (with their parents), a repository inside it is a nested one, and an ignored
 * directory is not entered.
 */
function walkUntracked(
  dir: string,
  rel: string,
  ignored: ReadonlySet<string>,
  out: { dirs: string[]; nested: string[] },
  budget: { n: number },
): void {
  if (--budget.n < 0) return;
  if (existsSync(join(dir, rel, '.git'))) {
    out.nested.push(rel);
    return;
  }
  let subdirs: string[];
  try {
    subdirs = readdirSync(join(dir, rel), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !ignored.has(`${rel}/${e.name}/`))
      .map((e) => `${rel}/${e.name}`);
  } catch {
    return; // unreadable: git could not look either
  }
  if (subdirs.length === 0) out.dirs.push(rel);
  for (const s of subdirs) walkUntracked(dir, s, ignored, out, budget);
}

/**
 * After `git add`: the tracked files, what stayed out and why. `large` are the files excluded for
 * size; `isOurs` tells the checkpoints' own directory (excluded, never worth naming).
 */
export async function scanTree(git: Git, dir: string, large: readonly string[], isOurs: (path: string) => boolean): Promise<TreeScan> {
  // Both only read the index: side by side.
  const [ignoredOut, listedOut] = await Promise.all([
    git.run(['ls-files', '-z', '-o', '-i', '--directory', '--exclude-standard']),
    git.run(['ls-files', '-z', '-t', '-c', '-o', '--directory', '--exclude-standard']),
  ]);
  const ignored = splitZ(ignoredOut.stdout).filter((p) => !isOurs(join(dir, p.replace(/\/$/, ''))));
  const ignoredSet = new Set(ignored);
  const listed = splitZ(listedOut.stdout);
  const tracked: string[] = [];
  const found = { dirs: [] as string[], nested: [] as string[] };
  const unreadable: string[] = [];
  const budget = { n: MAX_WALK };
  for (const entry of listed) {
    const path = entry.slice(2);
    if (entry[0] !== '?') tracked.push(path);
    else if (path.endsWith('/')) {
      if (!isOurs(join(dir, path.slice(0, -1)))) walkUntracked(dir, path.slice(0, -1), ignoredSet, found, budget);
    } else if (!large.includes(path)) unreadable.push(path);
  }
  const { dirs, nested } = found;
  const kept = dirs.slice(0, MAX_DIRS);
  const left: LeftOut = {};
  const add = (k: keyof LeftOut, paths: string[]) => {
    const g = group(paths);
    if (g) left[k] = g;
  };
  add('ignored', ignored);
  add('large', [...large]);
  add('nested', nested);
  add('unreadable', unreadable);
  add('dirs', dirs.slice(MAX_DIRS));
  return { modes: readModes(dir, tracked, kept), dirs: kept, left, ignored };
}
