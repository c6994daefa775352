/**
 * Whether a command can be shown not to start another program, for deny rules to fail closed. A
 * deny rule is matched against the commands a line spells out; a program that runs others the text
 * does not show (`script -qc …`, `parallel`, a debugger, an interpreter, a build tool, a pager, an
 * editor, a program aish does not know, a file named by a path of its own) could run exactly what
 * the rule denies. So while a deny rule exists, every program of the line must be one aish can see
 * through: a wrapper or shell whose command the reader follows, a read-only program, or a program
 * known to start nothing (`rm`, `cp`, `tar` without its program options). Anything else is
 * unresolved: the line asks, and with nobody to answer it is refused.
 */
import { readOnlyCheck } from '../safety/readonly-programs';
import { SHELLS } from '../safety/script-rules';
import type { Arg } from '../safety/shell-parser';
import { WRAPPERS } from '../safety/wrappers';

/** Where a program named by path is still the system's own (`/bin/rm` is `rm`, `./rm` is a file nobody has read). */
const SYSTEM_PROGRAM = /^\/(usr\/(local\/)?|opt\/homebrew\/)?s?bin\/[^/]+$/;

/** A finding of a program's own rule that means it starts something (`tar -I (runs a program)`). */
const RUNS =
  /\bruns?\b|program|command|script|shell|debugger|editor|lisp|recipes|package|daemon|schedules|changes what|loads|config may|container|exec/i;

/** Programs whose command (or script) the reader follows: what they run is checked on its own. */
const SEE_THROUGH = new Set([...Object.keys(WRAPPERS), ...SHELLS, 'eval', 'xargs', 'find', 'trap', 'coproc']);
/** Wrappers that, given no command, start a shell (which reads its commands from stdin). */
const SHELL_WITHOUT_COMMAND = new Set([
  'sudo',
  'su',
  'doas',
  'runuser',
  'chroot',
  'unshare',
  'nsenter',
  'firejail',
  'fakeroot',
  'sg',
  'pkexec',
  'ssh',
]);

/**
 * Programs with no way to start another program, whatever their arguments (beyond those the
 * classifier names: `tar -I`, `sed e`, `sort --compress-program`, … are found by RUNS). Shell
 * builtins included.
 */
const LEAVES = new Set([
  // builtins
  ':',
  'cd',
  'pushd',
  'popd',
  'dirs',
  'set',
  'unset',
  'shopt',
  'shift',
  'umask',
  'ulimit',
  'wait',
  'exit',
  'return',
  'break',
  'continue',
  'getopts',
  'read',
  'printf',
  'echo',
  'true',
  'false',
  'test',
  '[',
  'type',
  'hash',
  'jobs',
  'kill',
  'let',
  // files
  'rm',
  'rmdir',
  'cp',
  'mv',
  'mkdir',
  'touch',
  'ln',
  'link',
  'unlink',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'shred',
  'mkfifo',
  'mknod',
  'mktemp',
  'install',
  'dd',
  'tee',
  'sync',
  'split',
  'csplit',
  'sponge',
  'sed',
  'sort',
  'uniq',
  'base64',
  'xxd',
  'iconv',
  // archives and downloads
  'tar',
  'gtar',
  'bsdtar',
  'gzip',
  'gunzip',
  'zcat',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'zstd',
  'unzstd',
  'lz4',
  'zip',
  'unzip',
  'curl',
  'wget',
]);

/**
 * Leaves with options that start a program. The classifier names most (`tar -I`, `sed e`, `zip
 * -TT`, `wget -e`) and RUNS finds them in its findings; a word known only at run time could be one.
 */
const PROGRAM_OPTIONS: Record<string, RegExp> = {
  sort: /^--compress-program/,
  split: /^--filter/,
  install: /^--strip-program/,
  tar: /^$/,
  gtar: /^$/,
  bsdtar: /^$/,
  sed: /^$/,
  zip: /^$/,
  unzip: /^$/,
  wget: /^$/,
  curl: /^$/,
};

/**
 * Git's own subcommands that start nothing but git (hooks aside: they are the project's own files).
 * Anything else may be an alias from the user's git configuration or a `git-NAME` program.
 */
const GIT_OWN = new Set(
  (
    'add am annotate apply archive blame branch bundle cat-file check-attr check-ignore check-ref-format checkout ' +
    'cherry cherry-pick clean clone commit commit-graph commit-tree config count-objects describe diff diff-files ' +
    'diff-index diff-tree fetch for-each-ref format-patch fsck gc grep hash-object init log ls-files ls-remote ' +
    'ls-tree maintenance merge merge-base merge-file merge-tree mktag mktree mv name-rev notes pack-objects ' +
    'prune pull push range-diff read-tree rebase reflog remote repack replace reset restore rev-list rev-parse ' +
    'revert rm shortlog show show-branch show-ref sparse-checkout stash status stripspace submodule switch ' +
    'symbolic-ref tag unpack-objects update-index update-ref var verify-commit verify-pack verify-tag version ' +
    'whatchanged worktree write-tree help'
  ).split(' '),
);
/** Global git options that take a value (`git -C dir push`). */
const GIT_VALUES = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--list-cmds', '--attr-source']);

function gitOpaque(args: Arg[]): string | null {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic || a.glob) return `git ${a.text} (known only at run time)`;
    if (/^(-c|--config-env|--exec-path)/.test(a.text)) return `git ${a.text.split('=')[0]} (configuration may run a program)`;
    if (!a.text.startsWith('-')) break;
    if (GIT_VALUES.has(a.text)) i++;
  }
  const sub = args[i];
  if (!sub) return null;
  const rest = args.slice(i + 1);
  // The program run at the other end of a local or ssh transport, and grep's pager.
  const runs = rest.find((a) => /^(--upload-pack|--receive-pack|--exec|--open-files-in-pager)(=|$)|^-O/.test(a.text));
  if (runs || (sub.text === 'clone' && rest.some((a) => /^-[a-zA-Z]*u/.test(a.text))))
    return `git ${sub.text} ${(runs?.text ?? '-u').split('=')[0]} (runs a program)`;
  if (!GIT_OWN.has(sub.text)) return `git ${sub.text} (may be an alias or a git-${sub.text} program)`;
  if (sub.text === 'submodule' && rest.some((a) => a.text === 'foreach')) return 'git submodule foreach (runs commands)';
  if (sub.text === 'rebase' && rest.some((a) => /^(-x|--exec|-i|--interactive)(=|$)|^-[a-z]*[xi]/.test(a.text)))
    return 'git rebase --exec (runs commands)';
  if (sub.text === 'help' && rest.some((a) => /^(-w|--web|-i|--info|-m|--man)$/.test(a.text))) return 'git help (runs a viewer)';
  if (/^(commit|merge|tag|pull|revert|cherry-pick|notes)$/.test(sub.text) && rest.some((a) => /^(-e|--edit)$/.test(a.text)))
    return `git ${sub.text} --edit (runs an editor)`;
  if (sub.text === 'commit' && !rest.some((a) => /^(-m|-F|-C|--message|--file|--reuse-message|--no-edit)/.test(a.text)))
    return 'git commit (runs an editor for the message)';
  return null;
}

/**
 * awk with a literal program that neither calls system() nor pipes to or from a command. Every word
 * is looked at (an option's value may be taken for the program: `awk -F , '…'`).
 */
function awkOpaque(name: string, args: Arg[]): string | null {
  if (args.some((a) => a.dynamic || /^-(f|E|l|i|-exec|-file|-load|-include|-source)/.test(a.text)))
    return `${name} runs a program file or extension`;
  return args.some((a) => /system|\||@/.test(a.text)) ? `${name} may run commands (system(), a pipe)` : null;
}

/**
 * Why this command (program `name`, as `first` was written, with `args`) may start a program the
 * line does not show; null when it cannot. `flags` are its own rule's findings; `follows`: the
 * reader follows a command or script it runs.
 */
export function opaqueReason(name: string, first: Arg, args: Arg[], flags: readonly string[], follows: boolean): string | null {
  if (first.text.includes('/') && !SYSTEM_PROGRAM.test(first.text)) return `${first.text} is a file nobody has read here`;
  const running = flags.find((f) => RUNS.test(f));
  if (running) return running;
  if (SHELL_WITHOUT_COMMAND.has(name) && !follows) return `${name} without a command starts a shell`;
  if (SEE_THROUGH.has(name)) return null;
  if (name === 'git') return gitOpaque(args);
  if (/^[gmn]?awk$/.test(name)) return awkOpaque(name, args);
  if (readOnlyCheck(name)?.(args, name) === null) return null;
  if (!LEAVES.has(name)) return `${name} may run other programs`;
  const options = Object.hasOwn(PROGRAM_OPTIONS, name) ? PROGRAM_OPTIONS[name]! : null;
  const option = options && args.find((a) => a.dynamic || options.test(a.text));
  return option ? `${name} ${option.text} may run a program` : null;
}

/** `/usr/lib/git-core/git-push origin`, `git-push origin`: the git subcommand it is, as `git push origin`. */
export function gitSubcommand(first: Arg, args: Arg[]): Arg[] | null {
  if (first.dynamic || first.glob) return null;
  const m = /^(?:.*\/)?git-([a-z][a-z0-9-]*)$/i.exec(first.text);
  if (!m) return null;
  return [{ ...first, text: 'git' }, { text: m[1]!.toLowerCase(), dynamic: false, glob: false }, ...args];
}
