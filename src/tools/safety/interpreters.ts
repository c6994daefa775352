/** Interpreters given code inline (`python -c`, `node -e`, `perl -e`, awk programs): code that deletes files, or runs shell commands. */
import type { Arg } from './shell-parser';
import type { Rule } from './rule-kit';

/** Inline code that deletes files, per language; shell strings it runs are classified as scripts. */
const DELETES: Record<string, RegExp> = {
  python: /\brmtree\b|\bos\s*\.\s*(remove|unlink|rmdir|removedirs)\b|\.\s*(unlink|rmdir)\s*\(/,
  node: /\b(rmSync|unlinkSync|rmdirSync|truncateSync|rimraf)\b|\.\s*(rm|unlink|rmdir|truncate)\s*\(/,
  perl: /\b(unlink|rmtree|remove_tree|rmdir)\b/,
  ruby: /FileUtils\s*\.\s*(rm\w*|remove\w*)|\b(File|Dir|FileUtils)\s*\.\s*(delete|unlink|rmdir)\b/,
  php: /\b(unlink|rmdir)\s*\(/,
  awk: /(?!)/,
};
/** The option letter that introduces inline code (python -c, node -e/-p, perl -e/-E, php -r). */
const CODE_FLAG: Record<string, string> = { python: 'c', node: 'ep', perl: 'eE', ruby: 'e', php: 'r' };
const SHELL_CALL =
  /(?:\bos\.system|\bos\.popen|\bsubprocess\.\w+|\bexecSync|\.exec|\bsystem|\bpopen|\bshell_exec)\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

export function language(name: string): string | null {
  if (/^(python[\d.]*|pypy[\d.]*)$/.test(name)) return 'python';
  if (/^(node|nodejs|bun|deno)$/.test(name)) return 'node';
  if (/^(perl|ruby|php)$/.test(name)) return name;
  if (/^[gmn]?awk$/.test(name)) return 'awk';
  return null;
}

/** Inline code of an interpreter invocation; stdin when it reads its program from there. */
function inlineCode(lang: string, name: string, args: Arg[], stdin: string[]): string[] {
  const codes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    const next = (): void => {
      const code = args[++i];
      if (code && !code.dynamic) codes.push(code.text);
    };
    if (lang === 'awk') {
      if (t === '-f' || t.startsWith('--file')) return codes; // program in a file
      if (['-F', '-v', '-i', '-l'].includes(t)) i++;
      else if (a.dynamic || !t.startsWith('-')) return a.dynamic ? codes : [t];
    } else if (/^--(eval|print)=/.test(t)) codes.push(t.slice(t.indexOf('=') + 1));
    else if (/^--(eval|print)$/.test(t) || (/^-[A-Za-z]+$/.test(t) && CODE_FLAG[lang]!.includes(t.at(-1)!))) next();
    else if (name === 'deno' && t === 'eval') next();
    else if (a.dynamic || !t.startsWith('-')) return codes; // a script file: not inspected
  }
  return codes.length > 0 ? codes : [...stdin];
}

export const interpreter: Rule = (args, ctx, name) => {
  const lang = language(name)!;
  for (const code of inlineCode(lang, name, args, ctx.stdin)) {
    if (DELETES[lang]!.test(code)) ctx.flag(`${name} code deletes files`);
    for (const m of code.matchAll(SHELL_CALL)) ctx.runScript(m[2]!, true);
  }
};

/** An interpreter's inline code (or stdin when it reads its program there); null if not an interpreter. */
export function interpreterCode(name: string, args: Arg[], stdin: string[]): string[] | null {
  const lang = language(name);
  return lang ? inlineCode(lang, name, args, stdin) : null;
}
