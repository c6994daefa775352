/**
 * Which project a directory belongs to, and the names that project goes by: the normalized URL of
 * its git remote (`git:github.com/acme/shop`, the same for every clone), else the content of its
 * `.aish/project-id` (`id:NAME`), else its path. Read from files only and cached per directory, as
 * it is asked before the first prompt.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { realPath } from '../../util/paths';
import { readSmallFile, repositoryAt, remoteUrl } from './git-repo';
import { normalizeRemoteUrl } from './remote-url';
import { PROJECT_ID } from '../scope-format';

export interface ProjectIdentity {
  /** The project's directory: the git work tree's top, the directory holding `.aish/project-id`, or the directory itself. */
  root: string;
  /** Whether `root` was found by `.git` or `.aish/project-id` (false: a plain directory outside any project). */
  found: boolean;
  /** The scopes that name this project, the one new items get first: `git:…`, `id:…`, then `root`. */
  scopes: string[];
}

const cache = new Map<string, ProjectIdentity>();
const roots = new Map<string, ProjectIdentity | undefined>();

/** The project `dir` is in (the nearest one upwards); cached for the life of the process. */
export function projectIdentity(dir: string): ProjectIdentity {
  const start = realPath(dir);
  const hit = cache.get(start);
  if (hit) return hit;
  const seen: string[] = [];
  let found: ProjectIdentity | undefined;
  for (let d = start; ; d = dirname(d)) {
    const known = cache.get(d);
    if (known) {
      // A cached directory above: its project is ours too (or, when it has none, nothing above does).
      if (known.found) found = known;
      break;
    }
    seen.push(d);
    found = identityAt(d);
    if (found || dirname(d) === d) break;
  }
  const result = found ?? { root: start, found: false, scopes: [start] };
  for (const d of seen) cache.set(d, d === start || result.found ? result : { root: d, found: false, scopes: [d] });
  return result;
}

/** The identity of the project rooted exactly at `dir`, if `dir` holds `.git` or `.aish/project-id`. */
export function identityAt(dir: string): ProjectIdentity | undefined {
  if (roots.has(dir)) return roots.get(dir);
  const found = readIdentityAt(dir);
  roots.set(dir, found);
  return found;
}

function readIdentityAt(dir: string): ProjectIdentity | undefined {
  const repo = repositoryAt(dir);
  const id = projectIdFile(dir);
  if (!repo && id === undefined && !existsSync(join(dir, '.git'))) return undefined;
  const url = repo && remoteUrl(repo);
  const remote = url === undefined ? undefined : normalizeRemoteUrl(url, dir);
  const scopes = [...(remote ? [`git:${remote}`] : []), ...(id ? [`id:${id}`] : []), dir];
  return { root: dir, found: true, scopes };
}

/** The first line of `dir/.aish/project-id` when it is a valid id; missing or invalid: undefined (the path rule applies). */
function projectIdFile(dir: string): string | undefined {
  const line = readSmallFile(join(dir, '.aish', 'project-id'), 1024)
    ?.split(/\r?\n/)[0]!
    .trim();
  return line !== undefined && PROJECT_ID.test(line) ? line : undefined;
}

/** Drop what was read (tests, or after a directory's remote changed). */
export function forgetProjectIdentities(): void {
  cache.clear();
  roots.clear();
}
