/**
 * Project scope: an item added with --project belongs to the git root of the directory it was added
 * in (the directory itself outside git) and is used only while aish's directory is inside it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expandHome, realPath } from '../util/paths';
import type { MemoryItem } from './types';

/** The scope `--project` gives an item added in `cwd`. */
export function projectScope(cwd: string): string {
  const start = realPath(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** `dir` is `scope` or inside it (both absolute; `~` expanded). */
export function insideScope(scope: string, dir: string): boolean {
  const s = expandHome(scope).replace(/\/+$/, '') || '/';
  return dir === s || s === '/' || dir.startsWith(s + '/');
}

/** Which items apply in `cwd`: global ones always, project ones inside their scope. */
export function scopeFilter(cwd: string): (item: Pick<MemoryItem, 'scope'>) => boolean {
  const here = realPath(cwd);
  return (item) => item.scope === undefined || insideScope(item.scope, here);
}
