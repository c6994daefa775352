/**
 * The shadow repository of one working directory: `<root>/<hash of its real path>/`, a bare git
 * directory used with `--work-tree=<dir>`. Created on the first snapshot, 0700 like all aish data.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { devNull } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { AishError, errnoCode, formatError } from '../util/errors';
import { writeFileAtomicSync } from '../util/atomic-write';
import { describeFsError, ensurePrivateDir } from '../util/fs-safe';
import { SHADOW_ATTRIBUTES, type Git } from './git';
import { parentIgnores } from './ignores';

/** The one branch checkpoints are committed on, oldest to newest. */
export const REF = 'refs/heads/main';

/** Written last at creation: a shadow without it is (re)initialised. */
const MARKER = 'aish-dir';

export function shadowDirFor(root: string, dir: string): string {
  return join(root, createHash('sha256').update(dir).digest('hex').slice(0, 16));
}

export function shadowExists(gitDir: string): boolean {
  return existsSync(join(gitDir, MARKER));
}

/** `child` inside `parent` (or equal): the relative path; null when outside. */
export function inside(parent: string, child: string): string | null {
  const rel = relative(parent, child);
  return rel.startsWith('..') || isAbsolute(rel) ? null : rel;
}

/** A path as an anchored, literal .gitignore pattern. */
export function ignorePattern(rel: string): string {
  const esc = rel
    .split(/[\\/]/)
    .join('/')
    .replace(/[\\*?[\]]/g, '\\$&')
    .replace(/ +$/, (m) => m.replace(/ /g, '\\ '));
  return `/${esc}/`;
}

// Repeated on every call by git.ts's flags; kept here too so the shadow reads the same by hand.
const CONFIG = [
  '[core]',
  '\tautocrlf = false',
  '\tsafecrlf = false',
  '\tfsmonitor = false',
  '\tquotePath = false',
  // Listing untracked files is most of a snapshot's work; git caches directory stats for it.
  '\tuntrackedCache = true',
  `\thooksPath = ${devNull}`,
  // Each snapshot's new files go into one pack instead of a file per object (10,000 files: 0.9 s
  // instead of 2.2 s, 2 MB instead of 42 MB); housekeeping() merges the packs now and then.
  '\tbigFileThreshold = 1',
  // Fast zlib: a first snapshot of 265 MB takes 6 s instead of 11 s, for 68 MB instead of 60 MB.
  '\tcompression = 1',
  '[user]',
  '\tname = aish',
  '\temail = aish@localhost',
  '[commit]',
  '\tgpgSign = false',
  '[gc]',
  '\tautoDetach = false',
  '[advice]',
  '\taddEmbeddedRepo = false',
  '',
].join('\n');

/** Create the shadow repository of `dir` when there is none yet; bring its excludes up to date. */
export async function ensureShadow(git: Git, root: string, dir: string): Promise<void> {
  if (shadowExists(git.gitDir)) {
    try {
      updateExcludes(git.gitDir, root, dir);
    } catch (err) {
      throw new AishError(`checkpoint failed: cannot write ${join(git.gitDir, 'info', 'exclude')}: ${describeFsError(err)}`);
    }
    return;
  }
  try {
    ensurePrivateDir(root);
    ensurePrivateDir(git.gitDir);
  } catch (err) {
    throw new AishError(`cannot create checkpoints in ${root}: ${errnoCode(err) ?? formatError(err)}`);
  }
  await git.run(['init', '-q', '--bare', '--template='], { bare: true });
  try {
    appendFileSync(join(git.gitDir, 'config'), CONFIG);
    writeFileAtomicSync(join(git.gitDir, 'HEAD'), `ref: ${REF}\n`, { mode: 0o600 });
    mkdirSync(join(git.gitDir, 'info'), { recursive: true });
    // Files are stored and written back byte for byte, whatever the tree's .gitattributes say.
    writeFileAtomicSync(join(git.gitDir, 'info', 'attributes'), SHADOW_ATTRIBUTES, { mode: 0o600 });
    updateExcludes(git.gitDir, root, dir);
    // Last: its presence says the shadow is complete.
    writeFileAtomicSync(join(git.gitDir, MARKER), `${dir}\n`, { mode: 0o600 });
  } catch (err) {
    throw new AishError(`cannot create checkpoints in ${root}: ${describeFsError(err)}`);
  }
}

/**
 * The shadow's info/exclude, brought up to date before each snapshot: the checkpoints themselves
 * (a data dir inside the working tree) and the rules of the .gitignore files above the tree.
 * Rewritten only when it changes, so git's cache of untracked directories stays valid.
 */
function updateExcludes(gitDir: string, root: string, dir: string): void {
  const rel = inside(dir, root);
  const text = [...(rel ? [ignorePattern(rel)] : []), ...parentIgnores(dir)].map((l) => `${l}\n`).join('');
  const path = join(gitDir, 'info', 'exclude');
  let old: string | null = null;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    // first snapshot
  }
  // A rewrite cut short by a full disk must not leave git without its excludes.
  if (old !== text) writeFileAtomicSync(path, text, { mode: 0o600 });
}

/** Packs past which `git gc --auto` is asked to merge them (git's own default limit is 50). */
const PACK_LIMIT = 60;

/** Merge the small packs snapshots leave behind, once there are many (rarely: one per changed snapshot). */
export async function housekeeping(git: Git): Promise<void> {
  let packs: number;
  try {
    packs = readdirSync(join(git.gitDir, 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
  } catch {
    return;
  }
  if (packs > PACK_LIMIT) await git.run(['gc', '--auto', '--quiet']);
}
