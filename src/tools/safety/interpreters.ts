/**
 * Interpreters (python, node, perl, ruby, php, lua, R, julia, osascript, PowerShell, Tcl, awk): the
 * code they run is not shell, so it cannot be checked command by command. The rule is blunt on
 * purpose: inline code is destructive unless it only prints constants (`python3 -c 'print(1)'`), a
 * script file is destructive (nobody has read it), and in-place editing (`perl -pi`) rewrites files.
 * Shell strings found in the code (`os.system("…")`) are classified too, for a precise reason.
 */
import type { Arg } from './shell-parser';
import { clip, lit, type Rule } from './rule-kit';

/** Inline code that deletes files, per language: only for the wording of the reason. */
const DELETES: Record<string, RegExp> = {
  python: /\brmtree\b|\bos\s*\.\s*(remove|unlink|rmdir|removedirs)\b|\.\s*(unlink|rmdir)\s*\(/,
  node: /\b(rmSync|unlinkSync|rmdirSync|truncateSync|rimraf)\b|\.\s*(rm|unlink|rmdir|truncate)\s*\(/,
  perl: /\b(unlink|rmtree|remove_tree|rmdir)\b/,
  ruby: /FileUtils\s*\.\s*(rm\w*|remove\w*)|\b(File|Dir|FileUtils)\s*\.\s*(delete|unlink|rmdir)\b/,
  php: /\b(unlink|rmdir)\s*\(/,
};
/** Options that introduce inline code, per language (`perl -ne CODE`, `php -r CODE`). */
const CODE_FLAG: Record<string, string> = {
  python: 'c',
  node: 'ep',
  perl: 'eE',
  ruby: 'e',
  php: 'rBRE',
  lua: 'e',
  r: 'e',
  julia: 'eE',
  osascript: 'e',
  tcl: 'c',
};
/** Options whose value follows, attached (`-MPOSIX`) or as the next word (`-W ignore`). */
const VALUE_FLAG: Record<string, string> = {
  python: 'WXQ',
  node: 'r',
  perl: 'MmIxFCdD',
  ruby: 'IrCEFKTWx',
  php: 'cdFzn',
  lua: 'l',
  r: '',
  julia: 'LJp',
  osascript: 'ls',
  tcl: 'f',
};
/** Option letters that take optional digits (`perl -l012`, `-0777`). */
const DIGITS_FLAG = /^[l0]\d*/;
/** Statements that print constants, per language; `\0` stands for a string literal. */
const PRINT: Record<string, RegExp> = {
  python: /^print\([\0\d+\-*/%.,()]*\)$/,
  node: /^(console\.log\([\0\d+\-*/%.,()]*\)|[\0\d+\-*/%.,()]+)$/,
  perl: /^(print|say)(\([\0\d+\-*/%.,]*\)|[\0\d+\-*/%.,]*)$/,
  ruby: /^(puts|p|print)(\([\0\d+\-*/%.,]*\)|[\0\d+\-*/%.,]*)$/,
  php: /^(echo|print)[\0\d+\-*/%.,()]*$/,
  lua: /^print\([\0\d+\-*/%.,()]*\)$/,
  r: /^(print|cat)\([\0\d+\-*/%.,()]*\)$/,
  julia: /^(println|print)\([\0\d+\-*/%.,()]*\)$/,
};
const SHELL_CALL =
  /(?:\bos\.system|\bos\.popen|\bsubprocess\.\w+|\bexecSync|\.exec|\bsystem|\bpopen|\bshell_exec)\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
/** Lone options that print and exit (python's -v is verbose mode, not a version). */
const versionFlags = (lang: string): string[] =>
  lang === 'python' ? ['--version', '-V', '-VV', '--help', '-h'] : ['--version', '-v', '-V', '--help', '-h', '-version', '-Version', '-?'];

export function language(name: string): string | null {
  if (/^(python[\d.]*|pypy[\d.]*)$/.test(name)) return 'python';
  if (/^(node|nodejs|bun|deno)$/.test(name)) return 'node';
  if (/^(perl|ruby|php|julia|osascript)$/.test(name)) return name;
  if (/^(lua[\d.]*|luajit)$/.test(name)) return 'lua';
  if (name === 'rscript' || name === 'r') return 'r';
  if (name === 'pwsh' || name === 'powershell') return 'powershell';
  if (/^(tclsh[\d.]*|wish|expect)$/.test(name)) return 'tcl';
  if (/^[gmn]?awk$/.test(name)) return 'awk';
  return null;
}

interface Invocation {
  /** Inline program texts. */
  codes: string[];
  /** A script file (or `<(…)`) it runs. */
  file: string | null;
  /** Reads its program from stdin. */
  stdin: boolean;
  /** `python -m MOD ARGS`: the module and its arguments. */
  module: Arg[] | null;
  /** Edits files in place (perl -i, ruby -i, gawk -i inplace). */
  inPlace: boolean;
  /** Loads code from elsewhere (gawk -i lib, -l ext; PowerShell: anything). */
  loads: string | null;
}

/** How an interpreter is invoked: its inline code, script file, module, or stdin. */
function invocation(lang: string, name: string, args: Arg[]): Invocation {
  const inv: Invocation = { codes: [], file: null, stdin: false, module: null, inPlace: false, loads: null };
  if (lang === 'awk') return awkInvocation(args, inv);
  if (lang === 'powershell') {
    if (args.length === 0) inv.stdin = true;
    else if (!(args.length === 1 && versionFlags(lang).includes(args[0]!.text))) inv.loads = 'runs PowerShell code';
    return inv;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    const take = (): void => {
      const c = args[++i];
      if (c?.dynamic) inv.loads = 'runs unknown code';
      else if (c) inv.codes.push(c.text);
    };
    if (a.dynamic || t === '-' || !t.startsWith('-') || t === '--') {
      if ((name === 'deno' && t === 'eval') || (name === 'bun' && t === 'eval')) take();
      else if ((name === 'deno' || name === 'bun') && t === 'run') inv.file = args[i + 1]?.text ?? '?';
      else if (t === '--') inv.file = args[i + 1]?.text ?? null;
      else if (t === '-') inv.stdin = inv.codes.length === 0;
      else if (inv.codes.length === 0) inv.file = a.node?.type === 'process_substitution' ? 'generated code' : t;
      return inv; // the rest are the program's own arguments
    }
    if (i === 0 && args.length === 1 && versionFlags(lang).includes(t)) return inv;
    if (/^--(eval|print|command)=/.test(t)) inv.codes.push(t.slice(t.indexOf('=') + 1));
    else if (/^--(eval|print)$/.test(t)) take();
    else if (t.startsWith('--')) continue;
    else if (lang === 'node') {
      if (/^-[pe]+$/.test(t)) take();
      else if (t === '-r') i++;
    } else if (clusterTakesModule(lang, t.slice(1), inv, take, () => i++)) {
      inv.module = [...(inv.module ?? []), ...args.slice(i + 1)];
      return inv;
    }
  }
  if (inv.codes.length === 0 && inv.file === null && !inv.loads) inv.stdin = true;
  return inv;
}

/**
 * Reads one cluster of short options (`-lne`, `-pi.bak`, `-MPOSIX`, `-Bc`): code flags take the
 * rest of the cluster or the next word, `-i` edits in place. True for python's `-m MODULE`.
 */
function clusterTakesModule(lang: string, letters: string, inv: Invocation, take: () => void, skipNext: () => void): boolean {
  for (let j = 0; j < letters.length; j++) {
    const ch = letters[j]!;
    const rest = letters.slice(j + 1);
    if ((lang === 'perl' || lang === 'ruby') && ch === 'i') {
      inv.inPlace = true; // the rest of the cluster is the backup suffix
      return false;
    }
    if (lang === 'python' && ch === 'm') {
      inv.module = rest ? [lit(rest)] : [];
      return true;
    }
    if (CODE_FLAG[lang]!.includes(ch)) {
      if (rest) inv.codes.push(rest);
      else take();
      return false;
    }
    if (VALUE_FLAG[lang]!.includes(ch)) {
      if (!rest) skipNext();
      return false;
    }
    if (lang === 'perl' || lang === 'ruby') j += (DIGITS_FLAG.exec(letters.slice(j))?.[0].length ?? 1) - 1;
  }
  return false;
}

function awkInvocation(args: Arg[], inv: Invocation): Invocation {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (['-f', '-E', '--file', '--exec'].includes(t) || /^--(file|exec)=/.test(t)) {
      inv.file = t.includes('=') ? t.slice(t.indexOf('=') + 1) : (args[++i]?.text ?? '?');
    } else if (['-i', '--include', '-l', '--load'].includes(t) || /^--(include|load)=/.test(t)) {
      const lib = t.includes('=') ? t.slice(t.indexOf('=') + 1) : (args[++i]?.text ?? '');
      if (lib === 'inplace') inv.inPlace = true;
      else inv.loads = `loads ${clip(lib)}`;
    } else if (t === '-e' || t === '--source') {
      const c = args[++i];
      if (c) inv.codes.push(c.text);
    } else if (['-F', '-v', '--assign', '--field-separator'].includes(t)) i++;
    else if (a.dynamic || !t.startsWith('-') || t === '--') {
      const prog = t === '--' ? args[i + 1] : a;
      if (inv.codes.length === 0 && inv.file === null && prog) {
        if (prog.dynamic) inv.loads = 'runs unknown code';
        else inv.codes.push(prog.text);
      }
      return inv;
    }
  }
  return inv;
}

/** String literals become `\0`; interpolating ones (`"$x"`, `"#{…}"`, `f"{…}"`) stay as code. */
const stripStrings = (code: string): string =>
  code.replace(/(?<![\w$])('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\$@#{}`])*")/g, '\0').replace(/\s+/g, '');

/** Inline code that only prints constants. */
function printsOnly(lang: string, code: string): boolean {
  const re = PRINT[lang];
  if (!re) return false;
  const statements = stripStrings(code)
    .split(/;/)
    .filter((s) => s !== '');
  return statements.length > 0 && statements.every((s) => re.test(s));
}

/** An awk program that runs commands (`system`, `| getline`, `print | "cmd"`) or writes files. */
function awkDanger(code: string): string | null {
  if (/\bsystem\s*\(|\|/.test(code) || /@load/.test(code)) return 'runs commands';
  if (/\bprintf?\b[^;{}]*>/.test(code)) return 'writes files';
  return null;
}

export const interpreter: Rule = (args, ctx, name) => {
  const lang = language(name)!;
  const inv = invocation(lang, name, args);
  if (inv.inPlace) ctx.flag(`${name} -i (rewrites files)`);
  if (inv.loads) ctx.flag(`${name} ${inv.loads}`);
  if (inv.file !== null) ctx.flag(`${name} runs ${clip(inv.file)}`);
  if (inv.module?.[0]?.text === 'pip') ctx.runArgv(inv.module);
  for (const code of inv.stdin ? ctx.stdin : inv.codes) {
    for (const m of code.matchAll(SHELL_CALL)) ctx.runScript(m[2]!, true);
    if (lang === 'awk') {
      const danger = awkDanger(code);
      if (danger) ctx.flag(`${name} ${danger}`);
    } else if (DELETES[lang]?.test(code)) ctx.flag(`${name} code deletes files`);
    else if (!printsOnly(lang, code)) ctx.flag(`${name} runs inline code`);
  }
};

/** Whether an interpreter invocation takes its program from stdin; null if not an interpreter. */
export function readsProgramFromStdin(name: string, args: Arg[]): boolean | null {
  const lang = language(name);
  if (!lang) return null;
  return lang !== 'awk' && invocation(lang, name, args).stdin;
}
