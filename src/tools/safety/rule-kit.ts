/**
 * What a per-program safety rule gets: the command's words with quoting already removed, and a
 * context to report findings or hand inner commands back to the classifier. Shared helpers for
 * reading options.
 */
import type { Arg } from './shell-parser';

export interface RuleContext {
  /** Text statically fed on stdin: heredocs, here-strings, `echo …|`, `printf …|`. */
  stdin: string[];
  flag(reason: string): void;
  /** Classifies a string as a shell script (sh -c, eval, ssh host CMD, …); `lenient`: a string
   * found inside other code, whose parse errors do not count. */
  runScript(script: string, lenient?: boolean): void;
  /** Classifies words as a command; with `via`, a finding is reported as `${via} ${program}`. */
  runArgv(argv: Arg[], via?: string): void;
  /** The downloader (curl, wget, …) run inside this word's substitutions, if any. */
  download(arg: Arg): string | null;
}

export type Rule = (args: Arg[], ctx: RuleContext, name: string) => void;

export const lit = (text: string): Arg => ({ text, dynamic: false, glob: false });
/** Keeps reasons short when they quote the user's words. */
export const clip = (text: string): string => (text.length > 32 ? `${text.slice(0, 31)}…` : text);

export interface Flags {
  short: Set<string>;
  long: string[];
  positionals: Arg[];
}

/** Splits options (combined short flags included) from operands; `values` options take the next word. */
export function parseFlags(args: Arg[], values: readonly string[] = []): Flags {
  const out: Flags = { short: new Set(), long: [], positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.dynamic || t === '-' || !t.startsWith('-')) out.positionals.push(a);
    else if (t === '--') {
      for (const rest of args.slice(i + 1)) out.positionals.push(rest);
      i = args.length;
    } else {
      if (t.startsWith('--')) out.long.push(t);
      else for (const c of t.slice(1)) out.short.add(c);
      if (values.includes(t)) i++;
    }
  }
  return out;
}
export const hasLong = (f: Flags, ...names: string[]): boolean => f.long.some((l) => names.some((n) => l === n || l.startsWith(`${n}=`)));
export const has = (f: Flags, short: string, ...long: string[]): boolean => [...short].some((c) => f.short.has(c)) || hasLong(f, ...long);

/**
 * Whether a long option is one of `names`, also when abbreviated: GNU getopt_long accepts any
 * unambiguous prefix (`sort --out=f` is `--output=f`). `exact` for programs that do not.
 */
export const isOpt = (opt: string, names: readonly string[], exact = false): boolean =>
  names.some((n) => n === opt || (!exact && opt.startsWith('--') && opt.length >= 4 && n.startsWith(opt)));

/**
 * Walks clusters of short options (`-sSLo out`): `values` letters take the rest of the cluster or
 * the next word. Calls `on` for every option letter or long option, with its value if it takes one.
 * Returns the operands.
 */
export function scan(args: Arg[], values: string, on: (opt: string, value?: Arg) => void, longValues: string[] = []): Arg[] {
  const operands: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (t === '--' && !a.dynamic) return [...operands, ...args.slice(i + 1)];
    if (a.dynamic || t === '-' || !t.startsWith('-')) operands.push(a);
    else if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      if (eq > 0) on(t.slice(0, eq), { ...a, text: t.slice(eq + 1) });
      else on(t, longValues.includes(t) ? args[++i] : undefined);
    } else
      for (let j = 1; j < t.length; j++) {
        const c = t[j]!;
        if (!values.includes(c)) on(`-${c}`);
        else {
          on(`-${c}`, j + 1 < t.length ? { ...a, text: t.slice(j + 1) } : args[++i]);
          break;
        }
      }
  }
  return operands;
}

/** An output target that is a real file (not stdout, not /dev/null). */
export const writesFile = (v: Arg | undefined): boolean => !v || v.dynamic || (v.text !== '-' && !isSafeSink(v.text));

/** Targets that make even a plain `rm` destructive: /, ~, ., .., globs, unknown values. */
export function dangerousTarget(a: Arg): string | null {
  if (a.dynamic) return clip(a.text);
  if (a.glob) return `glob ${clip(a.text)}`;
  const t = a.text.replace(/(.)\/+$/, '$1');
  if (/^\/[/.]*$/.test(t)) return '/';
  if (/^~[\w.-]*$/.test(t) || t === '.' || t === '..') return t;
  return null;
}

/**
 * Files whose contents run later or decide what runs: shell startup files, git hooks and config,
 * direnv's .envrc, ssh keys and config, cron, aish's own config; anything under `.git/` (commondir,
 * info/attributes, worktree config name what git runs). Even appending to them counts.
 */
const RUNS_LATER =
  /(^|\/)(\.(bash_?rc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|kshrc|envrc|gitconfig|gitattributes|gitmodules|lfsconfig|npmrc|pythonrc)|\.config\/(fish|aish|git)\/.*|\.git(\/.+)?|\.ssh\/(authorized_keys2?|config|rc)|crontabs?\/.*|sitecustomize\.py|usercustomize\.py)$|^\/etc\//;
export const runsLater = (path: string): boolean => RUNS_LATER.test(path);

const SAFE_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
export const isSafeSink = (path: string): boolean => SAFE_SINKS.has(path) || /^\/dev\/fd\/\d+$/.test(path);

/**
 * Environment variables that name a program, a library or startup code to run: setting one makes
 * an ordinary command run something else (`PATH=/tmp/x ls`, `GIT_PAGER='rm -rf ~' git log`).
 */
const PROGRAM_VARIABLES = new Set([
  'PATH',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'BASH_LOADABLES_PATH',
  'PAGER',
  'MANPAGER',
  'MANOPT',
  'EDITOR',
  'VISUAL',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'TAR_OPTIONS',
  'RSYNC_RSH',
  'CVS_RSH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'RUBYOPT',
  'RUBYLIB',
  'GEM_PATH',
  'LUA_INIT',
  'LUA_PATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'CLASSPATH',
  'PKG_CONFIG_PATH',
  'MAKEFLAGS',
  'NPM_CONFIG_SCRIPT_SHELL',
  'npm_config_script_shell',
  'XDG_CONFIG_HOME',
  'HOME',
  'ZDOTDIR',
]);
/**
 * The same by the shape of the name, for what no list holds (the sixth attack: `PS1='$(…)' bash -i`,
 * `GCONV_PATH`, `KUBECONFIG`, `VIMINIT`, `PSQLRC`, `CARGO_HOME`, `GOFLAGS=-toolexec=…`): prompts a
 * shell expands, search paths, pagers and editors, start-up files and config homes, option
 * variables, compilers and wrappers; and npm's config from the environment.
 */
const PROGRAM_VARIABLE_SHAPE =
  /^(PS[0-4]|LESS|MORE|CC|CXX|CPP|FC|AR|RUSTC|PERL5DB|PYTHONWARNINGS|PYTHONBREAKPOINT|npm_config_\w+|NPM_CONFIG_\w+|\w*(PATH|PAGER|EDITOR|EDIT|BROWSER|ASKPASS|RSH|SHELL|INIT|RC|RCFILE|STARTUP|PRELOAD|OPTIONS|OPTS|OPT|FLAGS|COMMAND|CMD|WRAPPER|PROGRAM|HOME|CONFIG|CONFIG_DIR|CONFIGDIR|CONFIG_DIRS|DATA_DIRS|PROFILE|PROFILE_USER|LIB))$/;

export const programVariable = (name: string): boolean =>
  PROGRAM_VARIABLES.has(name) ||
  PROGRAM_VARIABLE_SHAPE.test(name) ||
  /^(LD_|DYLD_|GIT_(SSH|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|PROXY_COMMAND|CONFIG|EXEC_PATH|TEMPLATE_DIR|DIR$|WORK_TREE$|COMMON_DIR$|INDEX_FILE$))/.test(
    name,
  );
