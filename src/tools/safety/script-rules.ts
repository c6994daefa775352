/** Programs that run other text as shell code: shells (`sh -c`, `bash <(curl …)`), eval, source, trap, alias, coproc. */
import { programName, type Arg } from './shell-parser';
import { readsProgramFromStdin } from './interpreters';
import { clip, programVariable, type Rule, type RuleContext } from './rule-kit';

export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'rbash', 'fish', 'yash']);

/** What a script operand is, for the reason: `x.sh`, or generated text for `<(…)`. */
const scriptName = (a: Arg): string => (a.node?.type === 'process_substitution' ? 'generated text' : clip(a.text));

/**
 * `sh -c SCRIPT` (classified), `bash <<EOF … EOF` and `echo … | sh` (stdin, classified), `sh x.sh`
 * and `bash <(…)` (a file or text nobody has read: destructive). `-n` reads without running.
 */
export const shell: Rule = (args, ctx, name) => {
  let inline = false;
  let fromStdin = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (!a.dynamic && /^[-+][^-]/.test(t)) {
      if (t.startsWith('-') && t.includes('n') && !/^[-+][oO]$/.test(t)) return;
      if (t.startsWith('-') && t.includes('c')) inline = true;
      if (t.startsWith('-') && t.includes('s')) fromStdin = true;
      if (/^[-+][oO]$/.test(t)) i++;
      continue;
    }
    if (!a.dynamic && t === '-') fromStdin = true;
    if (!a.dynamic && t.startsWith('-')) {
      if (t === '--rcfile' || t === '--init-file') ctx.flag(`${name} runs ${clip(args[++i]?.text ?? '?')}`);
      if (t !== '--' || !fromStdin) continue;
    }
    if (fromStdin && !inline) break; // operands of `sh -s` are arguments, the script is stdin
    const dl = ctx.download(a);
    if (dl) return ctx.flag(`${dl} … | ${name}`);
    if (!inline) return ctx.flag(`${name} runs ${scriptName(a)}`);
    return a.dynamic ? ctx.flag(`${name} -c with unknown script`) : ctx.runScript(t);
  }
  if (!inline) for (const text of ctx.stdin) ctx.runScript(text);
};

const evalRule: Rule = (args, ctx) => {
  const dyn = args.find((a) => a.dynamic);
  if (!dyn) return ctx.runScript(args.map((a) => a.text).join(' '));
  const dl = ctx.download(dyn);
  ctx.flag(dl ? `${dl} … | eval` : 'eval of unknown text');
};

/** `source FILE`, `. <(…)`: runs text nobody has read, in this very shell. */
const source: Rule = (args, ctx, name) => {
  const file = args[0];
  if (!file) return;
  const dl = ctx.download(file);
  ctx.flag(dl ? `${dl} … | ${name}` : `${name} runs ${scriptName(file)}`);
};

const trap: Rule = (args, ctx) => {
  if (args[0] && !args[0].dynamic && !args[0].text.startsWith('-')) ctx.runScript(args[0].text);
};

/** `coproc CMD`, `coproc NAME { CMD …` (the grammar reads the braces as words). */
const coproc: Rule = (args, ctx) => {
  const open = (a: Arg | undefined): boolean => a?.text === '{' || a?.text === '(';
  ctx.runArgv(open(args[0]) ? args.slice(1) : open(args[1]) ? args.slice(2) : args);
};

/** An alias makes a name run something else (zsh expands aliases even in `zsh -c`, on the next line). */
const alias: Rule = (args, ctx) => {
  for (const a of args)
    if (a.dynamic || a.text.includes('=')) {
      ctx.flag(`alias ${clip(a.text.split('=')[0]!)} (changes what a name runs)`);
      if (!a.dynamic) ctx.runScript(a.text.slice(a.text.indexOf('=') + 1));
    }
};

/** `read PATH`, `printf -v PATH …`, `mapfile -C CMD`: builtins that set variables or run a callback. */
const setsVariables: Rule = (args, ctx, name) => {
  const targets = name === 'printf' ? (args[0]?.text === '-v' ? [args[1]] : []) : args.filter((a) => !a.text.startsWith('-'));
  const risky = targets.find((a) => a && (a.dynamic || programVariable(a.text)));
  if (risky) ctx.flag(`${name} sets ${clip(risky.text)} (changes what runs)`);
  const callback = (name === 'mapfile' || name === 'readarray') && args.findIndex((a) => /^-[a-zA-Z]*C$/.test(a.text));
  if (typeof callback === 'number' && callback >= 0) ctx.flag(`${name} -C runs a command per line`);
};

export const SCRIPT_RULES: Record<string, Rule> = {
  eval: evalRule,
  trap,
  alias,
  coproc,
  source,
  '.': source,
  read: setsVariables,
  printf: setsVariables,
  mapfile: setsVariables,
  readarray: setsVariables,
  // `hash -p FILE NAME` runs FILE for NAME; `enable -f LIB NAME` loads a builtin from a shared library.
  hash: (args, ctx) => (args.some((a) => /^-[a-zA-Z]*p/.test(a.text)) ? ctx.flag('hash -p (changes what a name runs)') : undefined),
  enable: (args, ctx) => (args.some((a) => /^-[a-zA-Z]*f/.test(a.text)) ? ctx.flag('enable -f (loads a builtin)') : undefined),
};

/** The shell or interpreter of a command that takes its program from stdin (`sh`, `python3 -`). */
export function programFromStdin(argv: Arg[]): string | null {
  const name = argv[0] && programName(argv[0]);
  if (!name) return null;
  const reads = readsProgramFromStdin(name, argv.slice(1));
  if (reads !== null) return reads ? name : null;
  if (!SHELLS.has(name)) return null;
  const marker = '\0stdin';
  let fromStdin = false;
  const probe: RuleContext = {
    stdin: [marker],
    flag: () => {},
    runScript: (s) => void (fromStdin ||= s === marker),
    runArgv: () => {},
    download: () => null,
  };
  shell(argv.slice(1), probe, name);
  return fromStdin ? name : null;
}
