/**
 * The git repository a directory is in and its remote URL, read from the files git keeps (`.git`,
 * `commondir`, `config`) rather than by running git: this runs before the first prompt, where no
 * child process may start.
 */
import { statSync } from 'node:fs';
import { readRegularFile } from '../../util/fs-safe';
import { dirname, join, resolve } from 'node:path';

export interface GitRepository {
  /** The work tree's top directory (where `.git` is). */
  top: string;
  /** The directory holding the repository's shared files and `config` (a worktree's main `.git`). */
  commonDir: string;
}

/** The repository whose `.git` is `dir/.git`, if there is one (a directory, or a file naming one). */
export function repositoryAt(dir: string): GitRepository | undefined {
  const dotGit = join(dir, '.git');
  let gitDir: string;
  try {
    if (statSync(dotGit).isDirectory()) gitDir = dotGit;
    else {
      // A worktree, a submodule or `git init --separate-git-dir`: `gitdir: PATH`, relative to `dir`.
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallFile(dotGit, 4096) ?? '');
      if (!m) return undefined;
      gitDir = resolve(dir, m[1]!);
    }
  } catch {
    return undefined;
  }
  return { top: dir, commonDir: commonDirOf(gitDir) };
}

/** A linked worktree's git directory names the shared one in `commondir`; others are their own. */
function commonDirOf(gitDir: string): string {
  const rel = readSmallFile(join(gitDir, 'commondir'), 4096)?.trim();
  return rel ? resolve(gitDir, rel) : gitDir;
}

/**
 * The first `max` bytes of a regular file, as text; anything else (missing, a directory, a FIFO or
 * device a hostile checkout put in place of `.git`) gives undefined without blocking or reading on.
 */
export function readSmallFile(path: string, max: number): string | undefined {
  try {
    return readRegularFile(path, { first: max }).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The nearest directory from `start` upwards that holds `.git` (file or directory). */
export function findRepository(start: string): GitRepository | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const repo = repositoryAt(dir);
    if (repo) return repo;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The URL of `origin`, else of the first remote with one, from the repository's own config file. */
export function remoteUrl(repo: GitRepository): string | undefined {
  const text = readSmallFile(join(repo.commonDir, 'config'), 1 << 20);
  if (text === undefined) return undefined;
  const remotes = remotesIn(text);
  return remotes.find((r) => r.name === 'origin')?.url ?? remotes[0]?.url;
}

/**
 * Each remote's first `url`, in file order, from git config text: `[remote "NAME"]` (and the old
 * `[remote.NAME]`), quoting, escapes, comments and continued lines as git reads them. Includes and
 * `insteadOf` rewrites are not followed: the identity is what this repository's config says.
 */
export function remotesIn(text: string): Array<{ name: string; url: string }> {
  const out: Array<{ name: string; url: string }> = [];
  let remote: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const section = header[1]!.toLowerCase();
      remote =
        section === 'remote' && header[2] !== undefined
          ? header[2].replace(/\\(.)/g, '$1')
          : section.startsWith('remote.')
            ? header[1]!.slice(7).toLowerCase()
            : undefined;
      line = line.slice(header[0].length);
    }
    const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!kv || remote === undefined || kv[1]!.toLowerCase() !== 'url' || kv[2] === undefined) continue;
    let raw = kv[2];
    // A line ending in an unescaped backslash continues on the next.
    while (/(^|[^\\])(\\\\)*\\$/.test(raw) && i + 1 < lines.length) raw = raw.slice(0, -1) + lines[++i]!;
    const url = configValue(raw);
    if (url && !out.some((r) => r.name === remote)) out.push({ name: remote, url });
  }
  return out;
}

/** A config value: quotes removed, `\"` `\\` `\n` `\t` `\b` unescaped, a comment outside quotes ends it. */
export function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else if (c === '\\' && i + 1 < raw.length) {
      const e = raw[++i]!;
      out += pendingSpace + (e === 'n' ? '\n' : e === 't' ? '\t' : e === 'b' ? '\b' : e);
      pendingSpace = '';
    } else if (!quoted && (c === ' ' || c === '\t')) pendingSpace += out ? c : '';
    else {
      out += pendingSpace + c;
      pendingSpace = '';
    }
  }
  return out;
}
