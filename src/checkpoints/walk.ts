/**
 * The walk the after-the-fact check compares: every path of the tree as `lstat` sees it. It enters
 * what the checkpoint does not hold too — ignored files, ignored directories other than generated
 * ones, repositories nested in the tree, the program files of every `.git` — and marks those
 * `unheld` (the check keeps copies of them). It skips only what is rewritten by every build:
 * ignored directories with a generated name (`node_modules/`, `build/`, caches), and git's
 * bookkeeping (objects, refs, the index).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configuresPrograms, entryOf, throughDirs, type Listing } from './watch';

/**
 * In a git directory: what makes git run programs or look elsewhere — and an interactive rebase's
 * state, whose todo list `exec`s commands at the user's next `git rebase --continue`. The rest is
 * git's bookkeeping.
 */
const GIT_PROGRAM_PATHS = ['config', 'config.worktree', 'commondir', 'hooks', 'info', 'objects/info/alternates', 'rebase-merge'];

/**
 * Directory names that hold what a build, an installer or a tool regenerates: not walked when the
 * project ignores them (or inside an ignored directory or a nested repository). Any other ignored
 * directory is walked and judged: it may hold what cannot be regenerated (`certs/`, `data/`).
 */
const GENERATED = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'build',
  '_build',
  'dist',
  'out',
  'target',
  'obj',
  'coverage',
  '.nyc_output',
  '.cache',
  '.parcel-cache',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.vite',
  '.angular',
  '.gradle',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.nox',
  '.venv',
  'venv',
  '.eggs',
  '.terraform',
  '.serverless',
  '.stack-work',
  'zig-cache',
  'zig-out',
  'elm-stuff',
  '.dart_tool',
]);

/** Paths listed per walk, at most; past this the walk stops (and says so). */
const MAX_ENTRIES = 200_000;
/**
 * Past MAX_ENTRIES, in the walk after a step whose walk before was complete (the step itself made
 * the excess): new paths that would be judged are still listed, at most this many.
 */
export const MAX_PAST = 10_000;

export interface WalkSkip {
  /** Ignored directories (relative, no trailing slash). */
  ignoredDirs: ReadonlySet<string>;
  /** Ignored files (relative). */
  ignoredFiles: ReadonlySet<string>;
  /** aish's own checkpoints, when they live inside the tree. */
  isOurs: (abs: string) => boolean;
}

export interface Walked {
  listing: Listing;
  /** False when the walk stopped at MAX_ENTRIES. */
  complete: boolean;
  /** Paths the checkpoint does not hold (ignored, in a nested repository, in a `.git`). */
  unheld: Set<string>;
  /** Walking past the limit, more than MAX_PAST paths that would be judged were found: not all are listed. */
  overflow?: boolean;
  /** Directories listed but not entered (at the walk's depth): a new one is judged whole. */
  sealed?: ReadonlySet<string>;
}

/** held: in the checkpoint; unheld: not (ignored, nested repository); git: in a git directory. */
type Area = 'held' | 'unheld' | 'git';

/**
 * The tree as it is now. `past`: at the limit, go on walking and list only what configures
 * programs (a step that makes 200,000 files must not hide a planted `.npmrc` behind them).
 */
export function listTree(dir: string, skip: WalkSkip, past = false): Walked {
  const listing: Listing = new Map();
  const unheld = new Set<string>();
  let complete = true;
  let overflow = false;
  let beyond = 0;
  const put = (rel: string, area: Area): boolean => {
    const full = listing.size - beyond >= MAX_ENTRIES;
    if (full) {
      complete = false;
      if (!past) return false;
    }
    const e = entryOf(join(dir, rel));
    if (!e) return false;
    if (full) {
      if (e.kind !== 'dir' && (area === 'git' || configuresPrograms(rel))) {
        if (beyond >= MAX_PAST) overflow = true;
        else {
          beyond++;
          listing.set(rel, e);
          if (area !== 'held') unheld.add(rel);
        }
      }
      return e.kind === 'dir';
    }
    listing.set(rel, e);
    if (area !== 'held') unheld.add(rel);
    return e.kind === 'dir';
  };
  const names = (rel: string): string[] => {
    try {
      return readdirSync(join(dir, rel));
    } catch {
      return []; // unreadable: seen as it is, its contents not
    }
  };
  const under = (rel: string, name: string) => (rel ? `${rel}/${name}` : name);
  // A git directory: its program files (and those of the submodules' and worktrees' git directories).
  const gitDir = (rel: string): void => {
    if (!put(rel, 'git')) return;
    // Not through a link a step put in place of a directory (`objects` → elsewhere).
    for (const p of GIT_PROGRAM_PATHS) if (throughDirs(dir, `${rel}/${p}`)) deep(`${rel}/${p}`);
    for (const group of ['modules', 'worktrees']) if (put(`${rel}/${group}`, 'git')) inner(`${rel}/${group}`);
  };
  // Under `.git/modules` (names may hold slashes) and `.git/worktrees`: each git directory in it.
  const inner = (rel: string): void => {
    for (const name of names(rel)) {
      const sub = `${rel}/${name}`;
      if (existsSync(join(dir, sub, 'HEAD')) || existsSync(join(dir, sub, 'config')) || existsSync(join(dir, sub, 'commondir')))
        gitDir(sub);
      else if (put(sub, 'git')) inner(sub);
    }
  };
  // Everything below `rel`, as it is (hooks, info).
  const deep = (rel: string): void => {
    if (put(rel, 'git')) for (const name of names(rel)) deep(`${rel}/${name}`);
  };
  const walk = (rel: string, area: Area): void => {
    for (const name of names(rel)) {
      const sub = under(rel, name);
      const abs = join(dir, sub);
      if (skip.isOurs(abs)) continue;
      if (name === '.git') {
        if (entryOf(abs)?.kind === 'dir') gitDir(sub);
        else put(sub, 'unheld'); // a worktree's or submodule's `.git` file, naming its repository
        continue;
      }
      let here = area;
      if (area === 'held' && skip.ignoredFiles.has(sub)) here = 'unheld';
      if (area === 'held' && skip.ignoredDirs.has(sub)) {
        if (GENERATED.has(name)) continue;
        here = 'unheld';
      }
      if (here === 'unheld' && area === 'unheld' && GENERATED.has(name) && entryOf(abs)?.kind === 'dir') continue;
      if (!put(sub, here)) continue;
      // A repository nested in the tree: the checkpoint leaves it out, the walk does not.
      walk(sub, here === 'held' && existsSync(join(abs, '.git')) ? 'unheld' : here);
    }
  };
  walk('', 'held');
  return { listing, complete, unheld, ...(overflow ? { overflow } : {}) };
}
