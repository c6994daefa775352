/**
 * The read-only part of git: inspecting history and the working tree, listing branches, tags,
 * remotes, stashes and configuration. Not included: anything that writes refs, the index beyond
 * git's own stat refresh, files or configuration, and options that run programs or write files
 * (`-c`, `--exec-path`, `--output`, `--ext-diff`, `--textconv`, `-O`, `--upload-pack`), and anything
 * that reaches the network (`ls-remote`, `fetch`): a URL can carry what the model read.
 */
import type { Arg } from './shell-parser';

/** Global options that change where git looks, not what it does. */
const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '--no-optional-locks',
  '-P',
  '--literal-pathspecs',
  '--no-replace-objects',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
]);
/** Not `--git-dir`/`--work-tree`: another repository's configuration may name programs. */
const GLOBAL_VALUES = new Set(['-C']);

/** Options of the reading subcommands that write a file or run a program. */
const DENIED = ['--output', '--ext-diff', '--textconv', '--exec', '--paginate', '--open-files-in-pager', '--filters', '--upload-pack'];
/** git accepts unambiguous abbreviations of long options (`--out=f` is `--output=f`). */
function denied(t: string): string | null {
  if (/^-O/.test(t)) return '-O';
  const name = t.split('=')[0]!;
  const hit = DENIED.find((d) => name === d || (name.startsWith('--') && name.length >= 4 && d.startsWith(name)));
  return hit ?? null;
}

type SubCheck = (rest: string[]) => string | null;

const reading: SubCheck = (rest) => {
  for (const t of rest) {
    if (t === '--') return null;
    const d = denied(t);
    if (d) return `git ${d} writes a file or runs a program`;
  }
  return null;
};

/** `git branch` and `git tag` list only: flags from a known set, names only in list mode. */
const listing =
  (what: string, flags: RegExp): SubCheck =>
  (rest) => {
    const list = rest.some((t) => /^(-l|--list|-[a-z]*l[a-z]*|--(no-)?contains|--(no-)?merged|--points-at)(=|$)/.test(t));
    for (const t of rest) {
      if (t.startsWith('-') ? !flags.test(t) : !list) return `git ${what} ${t} changes ${what === 'branch' ? 'branches' : 'tags'}`;
    }
    return null;
  };
const BRANCH_FLAGS =
  /^(-[arvli]+|--(all|remotes|verbose|list|show-current|no-color|no-column|ignore-case|no-abbrev|omit-empty)|--(color|column|sort|format|abbrev)(=.*)?|--(no-)?(contains|merged)(=.*)?|--points-at(=.*)?)$/;
const TAG_FLAGS =
  /^(-l|-i|-n\d*|--(list|no-column|ignore-case)|--(color|column|sort|format)(=.*)?|--(no-)?(contains|merged)(=.*)?|--points-at(=.*)?)$/;

/** `git config --get x`, `git config x`, `git config -l`, `git config get x`: reads only. */
const CONFIG_FLAGS =
  /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--global|--system|--local|--worktree|--name-only|-z|--null|--includes|--no-includes|--bool|--int|--path|--type=\w+)$/;
const config: SubCheck = (rest) => {
  const operands = rest.filter((t) => !t.startsWith('-'));
  const bad = rest.find((t) => t.startsWith('-') && !CONFIG_FLAGS.test(t));
  if (bad) return `git config ${bad} may change configuration`;
  if (operands[0] === 'get' || operands[0] === 'list') return null;
  const getting = rest.some((t) => /^--get/.test(t));
  const listing = rest.some((t) => t === '-l' || t === '--list');
  if (listing ? operands.length === 0 : getting ? operands.length <= 2 : operands.length === 1) return null;
  return 'git config with a value sets it';
};

/** A subcommand whose first operand must be one of `subs` (`stash list`, `worktree list`). */
const only =
  (what: string, subs: Array<string | undefined>): SubCheck =>
  (rest) => {
    const sub = rest.find((t) => !t.startsWith('-'));
    return subs.includes(sub) ? reading(rest) : `git ${what} ${sub ?? ''} is not read-only`.trim();
  };

const SUBCOMMANDS: Record<string, SubCheck> = {
  status: reading,
  log: reading,
  diff: reading,
  show: reading,
  'rev-parse': reading,
  'ls-files': reading,
  blame: reading,
  annotate: reading,
  describe: reading,
  shortlog: reading,
  'ls-tree': reading,
  'rev-list': reading,
  'merge-base': reading,
  'show-ref': reading,
  'count-objects': reading,
  'cat-file': reading,
  grep: reading,
  version: reading,
  'for-each-ref': reading,
  'name-rev': reading,
  whatchanged: reading,
  'check-ignore': reading,
  branch: listing('branch', BRANCH_FLAGS),
  tag: listing('tag', TAG_FLAGS),
  remote: (rest) =>
    rest.length === 0 || /^(-v|--verbose)$/.test(rest.join(' ')) || (rest[0] === 'get-url' && rest.length <= 3)
      ? null
      : 'git remote changes remotes',
  config,
  stash: only('stash', ['list', 'show']),
  reflog: only('reflog', [undefined, 'show']),
  worktree: only('worktree', ['list']),
};

/** Why this git command is not read-only, or null when it is. */
export function gitReadOnly(args: Arg[]): string | null {
  if (args.some((a) => a.dynamic || a.glob)) return 'git with a generated or glob argument';
  const t = args.map((a) => a.text);
  let i = 0;
  for (; i < t.length; i++) {
    if (GLOBAL_VALUES.has(t[i]!)) i++;
    else if (!GLOBAL_FLAGS.has(t[i]!)) break;
  }
  const sub = t[i];
  if (sub === '--version' && i === t.length - 1) return null;
  if (sub === undefined) return 'git without a subcommand';
  if (sub.startsWith('-')) return `git ${sub} is not a read-only option`;
  const check = Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub]! : null;
  return check ? check(t.slice(i + 1)) : `git ${sub} is not on the read-only list`;
}
