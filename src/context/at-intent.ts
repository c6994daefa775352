/**
 * An `@word` that names no path is usually a name (`@alice`, `@types/node`, a decorator) and stays
 * as typed; but one written like a path is a path with a typo, and sending the prompt without it
 * would get an answer made up about a file the model never saw. A word is written like a path when
 * it starts with `/`, `./`, `../` or `~/`, ends with `/`, has two or more `/`, or its last part is a
 * dotfile (`.env`), a well-known file name (`Makefile`) or ends in a file extension (`.md`, `.ts`,
 * `.json`…, a closed list: `.com` or `.io` are not among them). One `/` without an extension
 * (`@types/node`, `@org/team`) reads as an npm scope or a team — unless what is before the `/` is a
 * directory here with a name close to what follows (`@src/mian`) — and URLs are left alone.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { expandHome } from '../util/paths';
import { closest } from '../util/suggest';

const EXTENSIONS = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs json jsonc json5 jsonl md mdx txt log csv tsv py rs go rb java kt swift c h cc cpp hpp cs ' +
    'php sh bash zsh fish yml yaml toml ini cfg conf env lock xml html htm css scss sass less sql lua diff patch tf vue svelte ' +
    'rst adoc tex pdf png jpg jpeg gif svg webp ipynb proto graphql gql dart scala ex exs erl hs ml clj zig nim pl pm r bat ps1 ' +
    'gradle mk cmake dockerfile properties lst out err bak tmp gz zip tar'
  ).split(' '),
);
const FILE_NAMES = new Set([
  'Dockerfile',
  'Makefile',
  'Containerfile',
  'Gemfile',
  'Rakefile',
  'Procfile',
  'Justfile',
  'LICENSE',
  'README',
  'CHANGELOG',
]);

/** A line reference after a file name, as editors and compilers write it: `:12`, `:12:5`, `:10-20`, `#L3`, `#L3-L9`. */
export const LINE_REF = /(?::\d+(?::\d+)?(?:-\d+)?|#L\d+(?:C\d+)?(?:-L?\d+(?:C\d+)?)?)$/;

/** The entry of `dir` closest to `typed` (a name typed without its extension is compared without theirs: `mian` → main.ts). */
function nearName(dir: string, typed: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined; // no such directory either
  }
  const stems = new Map(names.map((n) => [n.replace(/\.[^.]+$/, ''), n]));
  return closest(typed, names, 2) ?? (typed.includes('.') ? undefined : stems.get(closest(typed, stems.keys(), 2) ?? ''));
}

/** Whether `ref` (trailing punctuation already removed) is written like a path; `cwd`: where a first directory would be. */
export function writtenLikePath(ref: string, cwd?: string): boolean {
  if (!ref || /^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return false;
  if (/^(~|\.{1,2})?\//.test(ref) || ref.endsWith('/')) return true;
  const parts = ref.split('/');
  if (parts.length >= 3) return true;
  // `@src/mian`: under a directory that is here, and close to a name in it (`@types/node` beside a
  // types/ folder without node in it is still the npm scope).
  if (parts.length === 2 && cwd !== undefined && parts[0] && parts[1] && nearName(resolve(cwd, parts[0]), parts[1])) return true;
  const last = parts[parts.length - 1]!;
  if (FILE_NAMES.has(last) || /^\.[A-Za-z0-9][\w.-]*$/.test(last)) return true;
  const ext = /^[\w.+-]+\.([A-Za-z0-9]+)$/.exec(last)?.[1];
  return ext !== undefined && EXTENSIONS.has(ext.toLowerCase());
}

/** The refusal for a path-like `@ref` that names nothing, with the closest name beside it when there is one. */
export function missingPathLine(ref: string, cwd: string): string {
  const abs = resolve(cwd, expandHome(ref.replace(/\/+$/, '')));
  const near = nearName(dirname(abs), basename(abs));
  const shown = ref.replace(/\/+$/, '');
  const hint = near ? ` (did you mean @${shown.slice(0, shown.length - basename(abs).length)}${near}?)` : '';
  return `@${ref}: no such file or directory${hint} — not attached`;
}
