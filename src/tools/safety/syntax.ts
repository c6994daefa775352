/**
 * Reading the parsed tree the way the shell will run it: the words of a simple command, what a
 * pipeline stage writes when that is known from the text alone (echo, printf, a heredoc), what a
 * command reads on stdin, and joining backslash-newline continuations.
 */
import { quotedHeredoc } from './hidden-code';
import { programName, resolveArg, type Arg, type SyntaxNode } from './shell-parser';
import { unwrap } from './wrappers';

const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** The words of a simple command, program first; prefix assignments and redirections left out. */
export function commandArgv(node: SyntaxNode): Arg[] {
  const argv: Arg[] = [];
  for (const child of node.namedChildren) {
    if (!child || child.type === 'comment' || child.type === 'variable_assignment' || REDIRECTS.has(child.type)) continue;
    if (child.type === 'command_name' || argv.length > 0) argv.push(resolveArg(child));
  }
  return argv;
}

/**
 * Words tree-sitter files under a redirection that bash gives to the command: in `rm 2>/dev/null
 * -rf src` only `/dev/null` is the target, `-rf src` are arguments of rm.
 */
export function wordsAfterRedirects(owners: Array<SyntaxNode | null>): Arg[] {
  const words: Arg[] = [];
  for (const owner of owners)
    for (const r of owner?.namedChildren ?? []) {
      if (r?.type !== 'file_redirect') continue;
      const targets = r.childrenForFieldName('destination').filter((d) => d !== null);
      for (const extra of targets.slice(1)) words.push(resolveArg(extra));
    }
  return words;
}

/** The simple command a pipeline stage runs (`cmd` or `cmd 2>/dev/null`), if it is one. */
export function commandOf(stage: SyntaxNode): SyntaxNode | null {
  if (stage.type === 'command') return stage;
  if (stage.type === 'redirected_statement') return stage.namedChildren.find((c) => c?.type === 'command') ?? null;
  return null;
}

/**
 * Heredoc bodies and here-strings attached to a command or to the statement around it; null when
 * one of them is generated at run time (`<<< "$(…)"`, an unquoted heredoc with `$(…)` in it).
 */
export function redirectTexts(cmd: SyntaxNode, statement: SyntaxNode | null): string[] | null {
  const texts: string[] = [];
  for (const owner of statement ? [cmd, statement] : [cmd])
    for (const r of owner.namedChildren) {
      if (r?.type === 'heredoc_redirect') {
        const body = r.namedChildren.find((c) => c?.type === 'heredoc_body');
        if (!body) continue;
        if (body.namedChildren.some((c) => c?.type !== 'heredoc_content')) return null;
        if (!quotedHeredoc(r) && body.text.includes('`')) return null; // backquotes run before it is fed
        texts.push(body.text);
      } else if (r?.type === 'herestring_redirect') {
        const word = r.namedChildren.find((c) => c !== null);
        const a = word && resolveArg(word);
        if (!a || a.dynamic) return null;
        texts.push(a.text);
      }
    }
  return texts;
}

/** Input redirected from a file (`sh < x.sh`): its target, if any. */
export function inputFile(cmd: SyntaxNode, statement: SyntaxNode | null): string | null {
  for (const owner of statement ? [cmd, statement] : [cmd])
    for (const r of owner.namedChildren)
      if (r?.type === 'file_redirect' && r.children.some((c) => c?.type === '<')) return r.childForFieldName('destination')?.text ?? '?';
  return null;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v', '\\': '\\' };
/** Backslash escapes as echo -e and printf read them: \xHH, \0NNN / \NNN, \uHHHH, \n, … */
function unescape(s: string, octalNeedsZero: boolean): string {
  const octal = octalNeedsZero ? '0[0-7]{0,3}' : '[0-7]{1,3}';
  return s.replace(new RegExp(`\\\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|${octal}|.)`, 'gs'), (m, e: string) => {
    if (/^[xuU]./.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return ESCAPES[e] ?? m;
  });
}

/** What `printf FORMAT ARGS…` prints: conversions take the arguments in turn, %b unescapes. */
function renderPrintf(format: string, args: string[]): string {
  let i = 0;
  let out = '';
  do {
    out += unescape(format, false).replace(/%(%|[-+ #0-9.]*[a-zA-Z])/g, (_m, conv: string) => {
      if (conv === '%') return '%';
      const arg = args[i++] ?? '';
      return conv.endsWith('b') ? unescape(arg, true) : arg;
    });
  } while (i > 0 && i < args.length);
  return out;
}

/**
 * What a pipeline stage writes, when the text says it: echo/printf of static words, cat of a
 * heredoc. Echo gives both readings (dash's echo decodes escapes, bash's does not). Null: unknown.
 */
export function literalOutput(stage: SyntaxNode): string[] | null {
  const cmd = commandOf(stage);
  if (!cmd) return null;
  const argv = unwrap(commandArgv(cmd));
  const name = argv[0] && programName(argv[0]);
  if (name === 'cat' && argv.length === 1) return redirectTexts(cmd, cmd === stage ? null : stage);
  if ((name !== 'echo' && name !== 'printf') || argv.some((a) => a.dynamic)) return null;
  let words = argv.slice(1).map((a) => a.text);
  if (name === 'printf') {
    if (words[0] === '--') words = words.slice(1);
    return words[0] === undefined || words[0] === '-v' ? null : [renderPrintf(words[0], words.slice(1))];
  }
  while (words[0] && /^-[neE]+$/.test(words[0])) words = words.slice(1);
  const text = words.join(' ');
  return text.includes('\\') ? [text, unescape(text, true)] : [text];
}

/**
 * The script as bash reads it after joining backslash-newline (`r\⏎m` is `rm`); tree-sitter reads
 * the pair as a word break instead. An escaped backslash (`\\`) is kept, quoting is not followed:
 * callers check both readings.
 */
export function joinContinuations(source: string): string | null {
  if (!source.includes('\\\n')) return null;
  return source.replace(/\\([\s\S])/g, (m, c: string) => (c === '\n' ? '' : m));
}
