/** Tab completion of the path after an `@` in a prompt: `@READ` → `@README.md`, directories with a trailing `/`. */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { resolve } from 'node:path';
import { expandHome } from '../util/paths';

/** More would be no help on a screen; the common prefix still completes. */
const MAX_CANDIDATES = 200;

/**
 * The paths `partial` (what follows the `@`, as typed) may complete to, relative to `cwd`, sorted;
 * `~/` and the directory part are kept as typed. Dot files only when the name typed starts with a dot.
 */
export function completeAtPath(partial: string, cwd: string): string[] {
  const slash = partial.lastIndexOf('/');
  const dirPart = partial.slice(0, slash + 1);
  const namePart = partial.slice(slash + 1);
  const dir = resolve(cwd, expandHome(dirPart || '.'));
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names = entries
    // A name with white space could not be referenced: the reference ends at the first blank.
    .filter((e) => e.name.startsWith(namePart) && !/\s/.test(e.name) && (namePart.startsWith('.') || !e.name.startsWith('.')))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, MAX_CANDIDATES);
  return names.map((e) => dirPart + e.name + (isDir(e, dir) ? '/' : ''));
}

/** A directory, or a symlink to one. */
function isDir(e: Dirent, dir: string): boolean {
  if (e.isDirectory()) return true;
  if (!e.isSymbolicLink()) return false;
  try {
    return statSync(resolve(dir, e.name)).isDirectory();
  } catch {
    return false;
  }
}
