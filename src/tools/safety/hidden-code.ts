/**
 * Code bash runs that the tree does not show as commands:
 * - backquotes tree-sitter leaves inside a word (`${x:-`cmd`}`) or an unquoted heredoc body;
 * - values bash evaluates as code: `a[$(cmd)]` found in any value that reaches `$(( ))`, `(( ))`,
 *   `let`, an array subscript, a substring offset (`${HOME:_}`), `[[ … -eq … ]]`, `test -v`, an
 *   indirect expansion (`${!_}`), a name reference (`declare -n`), a variable name given to a
 *   builtin (`read`, `printf -v`, `declare "$x=1"`, `unset`); and `$(cmd)` in a value expanded as
 *   a prompt (`${x@P}`).
 *   The value can be a literal written earlier in the same command (`echo 'a[$(cmd)]'` sets `$_`),
 *   put together from pieces (`d='$'; x="a[${d}(cmd)]"`), decoded (`$'\x24'`, `printf -v`,
 *   `${d@E}`) or read at run time (`read x < f`, `$(cat f)`): any of these is data that may be code.
 */
import { programName, type Arg, type SyntaxNode } from './shell-parser';

/** The texts between unescaped backquotes (an unclosed one runs to the end). */
function backquoted(text: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') {
      if (start < 0) start = i + 1;
      else {
        parts.push(text.slice(start, i));
        start = -1;
      }
    }
  }
  if (start >= 0) parts.push(text.slice(start));
  return parts;
}

/** A heredoc whose delimiter is quoted (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) is not expanded. */
export function quotedHeredoc(redirect: SyntaxNode): boolean {
  const start = redirect.namedChildren.find((c) => c?.type === 'heredoc_start');
  return start ? /['"\\]/.test(start.text) : true;
}

/** Commands in backquotes the parser left as text: in words and unquoted heredoc bodies. */
export function unparsedCommands(node: SyntaxNode): string[] {
  if (node.type === 'word' || node.type === 'string_content') return node.text.includes('`') ? backquoted(node.text) : [];
  if (node.type !== 'heredoc_redirect' || quotedHeredoc(node)) return [];
  const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
  return body?.text.includes('`') ? backquoted(body.text) : [];
}

const TEST_ARITHMETIC = /(^|\s)-(eq|ne|lt|le|gt|ge|v|R)(\s|$)/;

/** A `${x:offset[:length]}` whose offset or length is not a plain number. */
function substringExpression(node: SyntaxNode): boolean {
  if (!node.children.some((c) => c?.type === ':')) return false;
  return node.namedChildren.slice(1).some((c) => c !== null && c.type !== 'number');
}

/**
 * Where bash evaluates text as arithmetic (and so runs `$(…)` in array subscripts of values); for
 * simple commands see arithmeticCommand. Callers gate the per-node checks on the source: walking
 * thousands of words, each `.text` costs a copy out of WebAssembly.
 */
export function arithmeticNode(node: SyntaxNode): boolean {
  switch (node.type) {
    case 'arithmetic_expansion':
    case 'subscript':
    case 'c_style_for_statement':
      return true;
    case 'compound_statement':
      return node.child(0)?.type === '((';
    case 'test_command': // `[[ ]]` evaluates -eq… operands; both -v/-R; a value read at run time can be -v
      return (node.child(0)?.type === '[[' ? TEST_ARITHMETIC : /(^|\s)-[vR](\s|$)/).test(node.text) || node.text.includes('$');
    case 'expansion': // `${!x}` reads the variable x names: `a[$(cmd)]` evaluates its subscript; `${x@P}` runs `$(…)` in x
      return substringExpression(node) || node.children.some((c) => c?.type === '!') || transformation(node, 'P');
    case 'declaration_command': // -i: assignments are arithmetic; -n: a reference evaluates the name it holds
      return /\s-[a-zA-Z]*[in]/.test(node.text) || namesFromData(node);
    case 'unset_command':
      return namesFromData(node);
  }
  return false;
}

/** `${x@OP}`: a parameter transformation (`@P` expands x as a prompt, `@E` decodes its escapes). */
const transformation = (node: SyntaxNode, op: string): boolean =>
  node.children.some((c, i) => c?.type === '@' && node.child(i + 1)?.type === op);

/** A declaration or `unset` whose variable names are not plain words: `declare "$x=1"`, `unset 'a[$(cmd)]'`. */
function namesFromData(node: SyntaxNode): boolean {
  for (const c of node.namedChildren) {
    if (!c || c.type === 'variable_assignment' || c.type === 'variable_name') continue;
    if (c.type !== 'word' || c.text.includes('[')) return true;
  }
  return false;
}

/** Builtins that assign to variables named by their arguments: a subscript in a name is evaluated. */
const NAME_TAKERS = new Set(['read', 'getopts', 'mapfile', 'readarray', 'printf', 'wait']);
/** Builtins that fill variables with text known only at run time (a file's line, a decoded format). */
const READERS = new Set(['read', 'getopts', 'mapfile', 'readarray']);

/**
 * `let EXPR`; `test -v NAME` / `[ -v NAME ]` (and -R) evaluate an array subscript in NAME, and a
 * value read at run time may be that `-v` (`echo -v; [ "$_" 'a[$(cmd)]' ]` runs cmd); `read NAME`,
 * `printf -v NAME` … evaluate a subscript in a NAME that is not a plain word.
 */
export function arithmeticCommand(argv: Arg[]): boolean {
  const name = argv[0] ? programName(argv[0]) : null;
  const args = argv.slice(1);
  return (
    name === 'let' ||
    ((name === 'test' || name === '[') && args.some((a) => a.dynamic || a.text === '-v' || a.text === '-R')) ||
    (name !== null && NAME_TAKERS.has(name) && args.some((a) => a.dynamic || a.text.includes('[')))
  );
}

/** A builtin that puts text known only at run time into a variable: `read x < f`, `printf -v x '\x24'`. */
export function dataCommand(argv: Arg[]): boolean {
  const name = argv[0] ? programName(argv[0]) : null;
  return name !== null && (READERS.has(name) || (name === 'printf' && argv.some((a) => a.text.startsWith('-v'))));
}

/** Why a line with a place that evaluates values and data that may be code is not followed. */
export const EVALUATES_DATA = 'arithmetic, a name reference or ${x@P} may run $(…) held in a value';

/** Where backquotes or data that may be code could be at all: cheaper than asking every node. */
export const mayHideCode = (source: string): boolean => source.includes('`') || source.includes('$');

/**
 * Data that may be code if bash evaluated it again: a `$` or a backquote inside a literal (a piece
 * of `$(…)` put together later), a `$'…'` string with escapes (decoded), output of a command
 * (`$(cat f)`) and escapes decoded by `${x@E}`.
 */
export function codeInData(node: SyntaxNode): boolean {
  switch (node.type) {
    case 'ansi_c_string':
      return /[$`\\]/.test(node.text.slice(2));
    case 'raw_string':
    case 'string_content':
    case 'word':
    case 'heredoc_body':
      return node.text.includes('$') || node.text.includes('`');
    case 'command_substitution':
    case 'process_substitution':
      return true;
    case 'expansion':
      return transformation(node, 'E');
  }
  return false;
}
