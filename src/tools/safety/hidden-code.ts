/**
 * Code bash runs that the tree does not show as commands:
 * - backquotes tree-sitter leaves inside a word (`${x:-`cmd`}`) or an unquoted heredoc body;
 * - arithmetic: bash evaluates `a[$(cmd)]` found in any value that reaches `$(( ))`, `(( ))`,
 *   `let`, an array subscript, a substring offset (`${HOME:_}`), `[[ … -eq … ]]`, `test -v`, or
 *   an indirect expansion (`${!_}`).
 *   The value can be a literal written earlier in the same command (`echo 'a[$(cmd)]'` sets `$_`).
 */
import type { SyntaxNode } from './shell-parser';

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
    case 'expansion': // `${!x}` reads the variable x names: `a[$(cmd)]` evaluates its subscript
      return substringExpression(node) || node.children.some((c) => c?.type === '!');
    case 'declaration_command':
      return /\s-[a-zA-Z]*i/.test(node.text);
  }
  return false;
}

/**
 * `let EXPR`; `test -v NAME` / `[ -v NAME ]` (and -R) evaluate an array subscript in NAME, and a
 * value read at run time may be that `-v` (`echo -v; [ "$_" 'a[$(cmd)]' ]` runs cmd).
 */
export const arithmeticCommand = (name: string | null, args: Array<{ text: string; dynamic: boolean }>): boolean =>
  name === 'let' || ((name === 'test' || name === '[') && args.some((a) => a.dynamic || a.text === '-v' || a.text === '-R'));

/** Where backquotes or arithmetic could hide code at all: cheaper than asking every node. */
export const mayHideCode = (source: string): boolean => source.includes('`') || source.includes('$(');

/** Data that would be code if bash evaluated it again: `$(` or a backquote inside a literal. */
export function codeInData(node: SyntaxNode): boolean {
  switch (node.type) {
    case 'raw_string':
    case 'ansi_c_string':
    case 'string_content':
    case 'word':
    case 'heredoc_body':
      return node.text.includes('$(') || node.text.includes('`');
  }
  return false;
}
