/**
 * A directory inside a larger project (aish started in `repo/packages/app`) is its own shadow work
 * tree, so git would not see the .gitignore files of the directories above it. Their rules are
 * carried down into the shadow's info/exclude: a pattern that applies at any depth as it is, an
 * anchored one rebased when its leading parts match the path down to the directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** One .gitignore component (`*`, `?`, `[a-z]`, `\x`) as a regular expression. */
function componentRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) re += glob[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The lines of a .gitignore that lives `down` directories above the work tree (`down`: the path
 * components from its directory to the work tree), rewritten to apply inside the work tree.
 */
export function rebaseIgnore(text: string, down: string[]): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, '');
    if (!line || line.startsWith('#')) continue;
    const neg = line.startsWith('!') ? '!' : '';
    let body = line.slice(neg.length);
    const dirOnly = body.endsWith('/') ? '/' : '';
    body = body.slice(0, body.length - dirOnly.length);
    if (!body.includes('/')) {
      out.push(line); // matches at any depth, so also below the work tree
      continue;
    }
    const parts = body.replace(/^\//, '').split('/');
    let i = 0;
    for (; i < down.length && i < parts.length; i++) {
      if (parts[i] === '**') break; // may stand for the rest of the way down
      if (!componentRegex(parts[i]!).test(down[i]!)) break;
    }
    if (parts[i] === '**' || (i === down.length && i < parts.length)) out.push(`${neg}/${parts.slice(i).join('/')}${dirOnly}`);
    // Otherwise it names something beside the work tree, or the work tree itself: nothing inside.
  }
  return out;
}

/**
 * The rules of the .gitignore files above `dir`, up to the nearest directory holding a `.git`
 * (only its existence is checked; nothing in it is read). None when `dir` is not inside one.
 */
export function parentIgnores(dir: string): string[] {
  if (existsSync(join(dir, '.git'))) return [];
  const above: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    above.push(d);
    if (existsSync(join(d, '.git'))) break;
    if (dirname(d) === d) return [];
  }
  const lines: string[] = [];
  for (const d of above.reverse()) {
    let text: string;
    try {
      text = readFileSync(join(d, '.gitignore'), 'utf8');
    } catch {
      continue;
    }
    for (const l of rebaseIgnore(text, relative(d, dir).split(sep))) lines.push(l);
  }
  return lines;
}
