/**
 * Project scope: an item added with --project belongs to the project of the directory it was added
 * in — by identity when the project has one (its git remote, or `.aish/project-id`), so it applies
 * in every clone the user established as that project; else by path (the git root, or the
 * directory itself outside git).
 */
import { dirname } from 'node:path';
import { expandHome, realPath } from '../../util/paths';
import { identityAt, projectIdentity } from './project-identity';
import { isEstablished, type ProjectPair } from './project-trust';
import { isPathScope } from '../scope-format';
import type { MemoryItem } from '../types';

/** The scope `--project` gives an item added in `cwd`: `git:…`, `id:…` or the project's path. */
export function projectScope(cwd: string): string {
  return projectIdentity(cwd).scopes[0]!;
}

/** `dir` is `scope` or inside it (both absolute; `~` expanded). */
function insideScope(scope: string, dir: string): boolean {
  const s = expandHome(scope).replace(/\/+$/, '') || '/';
  return dir === s || s === '/' || dir.startsWith(s + '/');
}

/**
 * Whether a scope applies in `cwd`: an identity when it names this directory's project (or one it is nested in)
 * and the user established this checkout as that project (project-trust.ts: a remote URL or an id
 * file only suggest the name); a path when the directory is inside it, or when that path is itself
 * a project's root with one of those established identities (an item scoped to one clone by path
 * applies in another confirmed clone of the same remote). `asIfConfirmed`: as it will be once the
 * user says yes here.
 */
export function scopeMatcher(cwd: string, asIfConfirmed = false): (scope: string) => boolean {
  const here = realPath(cwd);
  const names = new Set([...namesAround(here)].filter((p) => asIfConfirmed || isEstablished(p.scope, p.root)).map((p) => p.scope));
  const memo = new Map<string, boolean>();
  return (scope) => {
    let ok = memo.get(scope);
    if (ok === undefined) {
      ok = isPathScope(scope)
        ? insideScope(scope, here) || (names.size > 0 && sameProject(realPath(expandHome(scope)), names))
        : names.has(scope);
      memo.set(scope, ok);
    }
    return ok;
  };
}

/** The identities of `dir`'s project and of the projects around it, each with its checkout's root (inside a submodule, the outer project's items apply too, as they do by path). */
export function namesAround(dir: string): ProjectPair[] {
  const names: ProjectPair[] = [];
  for (let p = projectIdentity(realPath(dir)); p.found; p = projectIdentity(dirname(p.root))) {
    for (const scope of p.scopes) if (!isPathScope(scope)) names.push({ scope, root: p.root });
    if (dirname(p.root) === p.root) break;
  }
  return names;
}

function sameProject(root: string, names: Set<string>): boolean {
  return identityAt(root)?.scopes.some((s) => names.has(s)) ?? false;
}

/** Which items apply in `cwd`: global ones always, project ones in their project. */
export function scopeFilter(cwd: string): (item: Pick<MemoryItem, 'scope'>) => boolean {
  const applies = scopeMatcher(cwd);
  return (item) => item.scope === undefined || applies(item.scope);
}
