/**
 * What a step run without a sandbox may change outside the project: the home directory's
 * configuration, which programs read and run by themselves later (`~/.bashrc`, `~/.profile`,
 * `~/.ssh/authorized_keys`, `~/.config/autostart`, `~/.gitconfig`, `~/.npmrc`, …). With a sandbox
 * none of it is writable; without one, a step nobody approved is judged here too, the way the
 * project is (step-watch.ts): every dot entry of HOME, a few levels deep, skipping caches and
 * aish's own files. Nothing there is in the checkpoint, so every file has a side copy.
 */
import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin, realPath } from '../util/paths';
import { sideWatch, type StepJudge, type StepVerdict, type StepWatch } from './step-watch';
import { entryOf, type Listing } from './watch';
import { MAX_PAST, type Walked } from './walk';

/** Levels below HOME that are walked (`.local/lib/python3/site-packages/x.pth` is the fifth). */
const DEPTH = 5;
/** Paths listed at most; past this the walk stops (what lay past it is looked at again, not judged new). */
const MAX_ENTRIES = 20_000;

/** What tools rewrite on every run (caches, package stores, browser profiles, their own state): not walked. */
const CACHES = new Set([
  '.cache',
  '.npm',
  '.yarn',
  '.pnpm-store',
  '.bun',
  '.cargo/registry',
  '.cargo/git',
  '.cargo/.package-cache',
  '.cargo/.global-cache',
  '.node-gyp',
  '.config/configstore',
  '.local/share/pnpm',
  '.local/share/uv',
  '.local/share/virtualenv',
  '.conda/pkgs',
  '.terraform.d/plugin-cache',
  '.rustup',
  '.nvm',
  '.pyenv',
  '.m2/repository',
  '.gradle',
  '.ivy2',
  '.sbt',
  '.go',
  '.cpan',
  '.local/share/Trash',
  '.local/state',
  '.mozilla',
  '.vscode-server',
  '.vscode',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/Code',
  '.dbus',
  '.xsession-errors',
  '.lesshst',
  '.wget-hsts',
  '.viminfo',
]);

/**
 * The home directory's configuration as it is now; `skip(abs)`: aish's own files, the project.
 * `past`: at the limit, go on walking and list files still (at most MAX_PAST more): a step that
 * makes 20,000 files in `~/.a` must not hide a new `~/.bash_aliases` behind them.
 */
function listHome(home: string, skip: (abs: string) => boolean, past = false): Walked {
  const listing: Listing = new Map();
  let complete = true;
  let overflow = false;
  let beyond = 0;
  const sealed = new Set<string>();
  const add = (rel: string, level: number): void => {
    const abs = join(home, rel);
    if (CACHES.has(rel) || skip(abs)) return;
    const full = listing.size - beyond >= MAX_ENTRIES;
    if (full) {
      complete = false;
      if (!past) return;
    }
    const e = entryOf(abs);
    if (!e) return;
    if (!full || e.kind !== 'dir') {
      if (full && beyond >= MAX_PAST) overflow = true;
      else {
        if (full) beyond++;
        listing.set(rel, e);
      }
    }
    if (e.kind !== 'dir') return;
    // What a new directory here holds is not listed: it is judged as a whole (`~/.vim/pack/p/start/x/plugin/…`).
    if (level >= DEPTH) {
      sealed.add(rel);
      return;
    }
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const n of names) add(`${rel}/${n}`, level + 1);
  };
  let top: string[] = [];
  try {
    top = readdirSync(home);
  } catch {
    // no home to look at
  }
  for (const n of top) if (n.startsWith('.')) add(n, 1);
  return { listing, complete, unheld: new Set(listing.keys()), sealed, ...(overflow ? { overflow } : {}) };
}

/** The watch of HOME's configuration for one step; `exclude`: absolute paths not to judge. */
export function watchHome(home: string, exclude: readonly string[]): StepWatch {
  const skip = (abs: string) => exclude.some((x) => isWithin(abs, x));
  return sideWatch(home, (past) => listHome(home, skip, past));
}

/** The watch of a few files anywhere (absolute paths; what the project's links lead to). */
export function watchFiles(files: readonly string[]): StepWatch {
  return sideWatch('/', () => {
    const listing: Listing = new Map();
    for (const f of files) {
      const e = entryOf(f);
      if (e) listing.set(f.slice(1), e);
    }
    return { listing, complete: true, unheld: new Set(listing.keys()) };
  });
}

/** Files named in a command, at most. */
const MAX_NAMED = 500;

/**
 * The existing files a command names outside `dir` (`../other/x`, `/srv/data/y`, `~/notes/z`,
 * `--output=../x`), and the files directly in the directories it names there (or names a pattern
 * in: `../x/*.c`, `~/notes/{a,b}`): what a step run without a sandbox most likely writes outside
 * the project, also after a `cd`. A path the command computes (`$(…)`, a script) is not seen;
 * HOME's configuration is watched on its own.
 */
export function namedOutside(command: string, dir: string, home: string): string[] {
  const words = command
    .split(/[\s;|&<>()`'"=,]+/)
    .filter((w) => w.includes('/') || w.startsWith('~'))
    .map((w) => normalized(w, dir, home));
  const found = new Set<string>();
  const take = (abs: string) => {
    if (found.size < MAX_NAMED && !isWithin(abs, dir) && entryOf(abs)?.kind === 'file') found.add(abs);
  };
  // A relative path means another place after a `cd` (`cd .. && x -o other/f`): it is read from
  // each directory above the project too, and from each directory the command names (at most 64).
  const bases = [dir];
  for (let d = dirname(dir); !bases.includes(d); d = dirname(d)) bases.push(d);
  for (const word of words) {
    if (!isAbsolute(word) || bases.length >= 64) continue;
    const real = realPath(word);
    if (entryOf(real)?.kind === 'dir') bases.push(real);
  }
  for (const word of words) {
    if (isAbsolute(word)) named(word, dir, take);
    // Its first parts may be a link the step makes (`ln -s .. up && x -o up/other/f`): each tail too.
    else for (const tail of tails(word)) for (const base of bases) named(resolve(base, tail), dir, take);
  }
  return [...found];
}

/** `a/b/c`, `b/c`, `c`: at most a few. */
function tails(word: string): string[] {
  const parts = word.split('/');
  return parts
    .slice(0, 6)
    .map((_p, i) => parts.slice(i).join('/'))
    .filter(Boolean);
}

/**
 * `~`, `$HOME` and the process's own directories in /proc written out (`/proc/self/cwd/../x` is
 * the project's `../x`, `/proc/self/root/x` is `/x`).
 */
function normalized(w: string, dir: string, home: string): string {
  return w
    .replace(/^(\$HOME|\$\{HOME\}|~)(?=\/|$)/, home)
    .replace(/^\/proc\/[^/]+\/cwd(?=\/|$)/, dir)
    .replace(/^\/proc\/[^/]+\/root(?=\/)/, '');
}

/** The file `path` names, or the files directly in the directory it names (or names a pattern in). */
function named(path: string, dir: string, take: (abs: string) => void): void {
  let word = path;
  // A pattern (glob, braces) or a variable: the directory before it stands for what it may name.
  const wild = word.search(/[$*?[{]/);
  if (wild >= 0) {
    const cut = word.lastIndexOf('/', wild);
    if (cut < 0) return;
    word = word.slice(0, cut) || '/';
  }
  const abs = realPath(word);
  // System trees are not the user's files, and only root may write them.
  if (/^\/(proc|sys|dev|usr|bin|sbin|lib|lib64|etc|boot)(\/|$)/.test(abs) || abs === '/') return;
  const e = entryOf(abs);
  if (e?.kind === 'file') take(abs);
  else if (e?.kind === 'dir' && !isWithin(dir, abs)) {
    let names: string[] = [];
    try {
      names = readdirSync(abs);
    } catch {
      // unreadable: nothing to watch
    }
    for (const n of names.slice(0, MAX_NAMED)) take(join(abs, n));
  }
}

/** Several judges as one; `prefix` names each one's paths for the user and the model. */
export function judgeAll(judges: Array<[StepJudge, string]>): StepJudge {
  return {
    unrestorable: () => judges.flatMap(([j]) => j.unrestorable()),
    async check() {
      const verdicts: StepVerdict[] = [];
      for (const [judge, prefix] of judges) {
        const v = await judge.check();
        if (v)
          verdicts.push({
            changes: v.changes.map((c) => ({ ...c, path: prefix + c.path })),
            notRestored: v.notRestored.map((p) => prefix + p),
            keep: v.keep,
          });
      }
      if (!verdicts.length) return null;
      const keeps = verdicts.flatMap((v) => (v.keep ? [v.keep] : []));
      return {
        changes: verdicts.flatMap((v) => v.changes),
        notRestored: verdicts.flatMap((v) => v.notRestored),
        keep: keeps.length === verdicts.length ? () => keeps.forEach((k) => k()) : null,
      };
    },
  };
}
