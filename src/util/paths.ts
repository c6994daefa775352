/** Home-directory shorthand, both ways: `~/x` typed by a user, and `~/x` shown for display. */
import { homedir } from 'node:os';
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AishError } from './errors';

/** `~` and `~/…` as typed by a user; anything else unchanged. */
export function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

/** ~/src/app rather than /home/me/src/app, for display. */
export function tildify(p: string): string {
  const h = homedir();
  return p === h ? '~' : p.startsWith(h + '/') ? `~${p.slice(h.length)}` : p;
}

/** `path` is `dir` or lies below it (both absolute). */
export function isWithin(path: string, dir: string): boolean {
  const r = relative(dir, path);
  return r === '' || (r !== '..' && !r.startsWith('..' + sep) && !isAbsolute(r));
}

/** The path as the file system names it (symlinks resolved), or just made absolute when it cannot be resolved. */
export function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** `path` with the symlinks of its directory resolved (the file itself may not exist yet), else as given. */
export function realDir(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

// The directory before aish's last cd (`cd -`). aish's own, not an OLDPWD inherited from the
// shell that started it: that was some other program's previous directory.
let previousDir: string | undefined;

/** `cd DIR` for aish itself: `~` expanded, relative to the current directory, `-` = back, one-line errors. */
export function changeDirectory(dir: string): void {
  const back = dir.trim() === '-';
  if (back && previousDir === undefined) throw new AishError('cd: -: no previous directory (aish has not changed directory yet)');
  const target = back ? previousDir! : expandHome(dir.trim() || '~');
  const abs = isAbsolute(target) ? target : resolve(process.cwd(), target);
  const from = process.cwd();
  try {
    process.chdir(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AishError(
      `cd: ${dir}: ${code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : (code ?? 'failed')}`,
    );
  }
  previousDir = from;
  // As a shell does, for the commands aish runs (`cd "$OLDPWD"`).
  process.env.OLDPWD = from;
  process.env.PWD = process.cwd();
}
