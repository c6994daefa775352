/**
 * Project scope: an item added with --project belongs to the project of the directory it was added
 * in — by identity when the project has one (its git remote, or `.aish/project-id`), so it applies
 * in every clone; else by path (the git root, or the directory itself outside git).
 */
import { dirname } from 'node:path';
import { expandHome, realPath } from '../util/paths';
import { identityAt, projectIdentity } from './project-identity';
import { isPathScope } from './scope-format';
import type { MemoryItem } from './types';

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
 * Whether a scope applies in `cwd`: an identity when it names this directory's project (or one it is nested in); a path when
 * the directory is inside it, or when that path is itself a project's root with one of our
 * identities (an item scoped to one clone by path applies in another clone of the same remote).
 */
export function scopeMatcher(cwd: string): (scope: string) => boolean {
  const here = realPath(cwd);
  const names = namesAround(here);
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

/** The identities of `dir`'s project and of the projects around it (inside a submodule, the outer project's items apply too, as they do by path). */
function namesAround(dir: string): Set<string> {
  const names = new Set<string>();
  for (let p = projectIdentity(dir); p.found; p = projectIdentity(dirname(p.root))) {
    for (const s of p.scopes) if (!isPathScope(s)) names.add(s);
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
