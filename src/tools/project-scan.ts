/**
 * One bounded walk of aish's project before each unasked step: the files that hold secrets by
 * convention (`.env`, …), and the git configuration files of every repository in it — the
 * project's own, nested ones, bare or `--separate-git-dir` ones, and what a `.git` file or a
 * `commondir` points to — so that the sandbox can show them without the keys that name programs.
 */
import type { Dirent } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** How deep and how wide the project is searched (a bound on the cost of every step). */
const DEPTH = 4;
const MAX_DIRS = 2000;
const SKIPPED = new Set(['node_modules', '.hg', '.svn']);

export interface ProjectScan {
  /** `.env` files and the like (paths as found; the caller resolves them). */
  secrets: string[];
  /** Existing git configuration files (`config`, `config.worktree`) of the repositories found. */
  gitConfigs: string[];
}

/** `gitdir: X` of a `.git` file, or a `commondir` file's path, resolved against its directory. */
async function pointer(file: string, prefix: string): Promise<string | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  const line = text?.split('\n')[0]?.trim();
  if (!line || !line.startsWith(prefix)) return null;
  return resolve(dirname(file), line.slice(prefix.length).trim());
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

/** A git directory's configuration files, following `commondir` once. */
async function configsOf(gitDir: string): Promise<string[]> {
  const common = await pointer(join(gitDir, 'commondir'), '');
  const dirs = common ? [gitDir, common] : [gitDir];
  const files = dirs.flatMap((d) => [join(d, 'config'), join(d, 'config.worktree')]);
  const exist = await Promise.all(files.map(isFile));
  return files.filter((_, i) => exist[i]);
}

export async function scanProject(project: string): Promise<ProjectScan> {
  // The names load with the first step, not at start-up.
  const { isProjectSecret } = await import('./safety/secret-names');
  const secrets: string[] = [];
  const gitDirs = new Set<string>();
  let level = [project];
  let seen = 0;
  for (let depth = 0; depth <= DEPTH && level.length && seen < MAX_DIRS; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++seen > MAX_DIRS) break;
      const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
      const names = new Set(entries.map((e) => e.name));
      // A bare repository, a separate git dir or a `commondir` target: HEAD beside objects/.
      if (names.has('HEAD') && names.has('objects')) gitDirs.add(dir);
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.name === '.git') {
          const gitDir = e.isDirectory() ? path : await pointer(path, 'gitdir:');
          if (gitDir) gitDirs.add(gitDir);
        } else if (e.isDirectory()) {
          if (!SKIPPED.has(e.name)) next.push(path);
        } else if (isProjectSecret(e.name)) secrets.push(path);
      }
    }
    level = next;
  }
  const gitConfigs = (await Promise.all([...gitDirs].map(configsOf))).flat();
  return { secrets, gitConfigs: [...new Set(gitConfigs)].sort() };
}
