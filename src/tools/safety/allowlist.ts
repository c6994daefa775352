/**
 * What may run unasked outside a sandbox: commands proven read-only by parsing them, not commands
 * merely not known to be dangerous. The command must parse cleanly, and every node of the tree must
 * be one of a few shapes — simple commands joined by pipes, `&&`, `||`, `;`, grouped by `( … )` or
 * `{ …; }`, with words, quotes, variable reads, `$( … )`/`<( … )` of commands that pass the same
 * test, heredocs, input redirections and output to /dev/null. Every simple command must run a
 * program from readonly-programs.ts with arguments it accepts. Anything else is "not safe": control
 * flow, functions, assignments (other than locale prefixes), backgrounding, arithmetic, `[[ ]]`,
 * output to files, programs named by path or variable. Backslash-newline is checked both as
 * tree-sitter reads it and joined, as bash reads it.
 */
import { getShellParser, loadShellParser, resolveArg, type SyntaxNode } from './shell-parser';
import { arithmeticNode, mayHideCode, unparsedCommands } from './hidden-code';
import { clip, isSafeSink } from './rule-kit';
import { readOnlyCheck } from './readonly-programs';
import { secretAccess, secretExpansion, secretPath } from './secrets';
import { joinContinuations } from './syntax';

export interface AllowVerdict {
  /** Every simple command in it is on the read-only allowlist, with every argument checked. */
  safe: boolean;
  /** Why not, for the user (e.g. `sed -i rewrites files`, `output redirected to a file`). */
  reason?: string;
}

/** Node types that only structure or spell words; their children are checked in turn. */
const STRUCTURE = new Set([
  'program',
  'list',
  'pipeline',
  'redirected_statement',
  'subshell',
  'compound_statement',
  'negated_command',
  'comment',
  'command_name',
  'word',
  'number',
  'string',
  'string_content',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'variable_name',
  'special_variable_name',
  'command_substitution',
  'process_substitution',
  'heredoc_redirect',
  'heredoc_start',
  'heredoc_body',
  'heredoc_content',
  'heredoc_end',
  'herestring_redirect',
  'file_descriptor',
]);
/** Inside `[ … ]` (the test builtin, which unlike `[[ … ]]` never evaluates arithmetic). */
const TEST_PARTS = new Set(['unary_expression', 'binary_expression', 'test_operator', 'parenthesized_expression', 'negated_expression']);
/** Prefix assignments that only change how output is spelled (`LC_ALL=C sort`). */
const LOCALE = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|COLUMNS|LINES|GREP_COLORS?)$/;
/** Where a program named by path is still the system's own (`/usr/bin/ls` is `ls`). */
const SYSTEM_DIR = /^\/(usr\/(local\/)?|opt\/homebrew\/)?s?bin\/[^/]+$/;
/** Nested `$( … )`, `<( … )`, `( … )`, `{ …; }`; deeper is refused rather than followed. */
const MAX_NESTING = 40;
const NESTING = new Set(['subshell', 'compound_statement', 'command_substitution', 'process_substitution']);
const SAFE: AllowVerdict = { safe: true };
const no = (reason: string): AllowVerdict => ({ safe: false, reason });

function checkCommand(node: SyntaxNode): string | null {
  const words: SyntaxNode[] = [];
  for (const c of node.namedChildren) {
    if (!c || c.type === 'file_redirect' || c.type === 'heredoc_redirect' || c.type === 'herestring_redirect' || c.type === 'comment')
      continue;
    if (c.type === 'variable_assignment') {
      const name = c.childForFieldName('name')?.text ?? '';
      if (!LOCALE.test(name)) return `${clip(name)}=… changes how the command runs`;
    } else words.push(c);
  }
  const [nameNode, ...rest] = words;
  if (!nameNode) return null; // redirections only, e.g. `< file`
  const program = resolveArg(nameNode);
  if (program.dynamic || program.glob) return `the program ${clip(program.text)} is only known at run time`;
  const path = program.text;
  if (path.includes('/') && !SYSTEM_DIR.test(path)) return `${clip(path)} is a file nobody has read`;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const args = rest.map(resolveArg);
  const check = readOnlyCheck(name);
  const own = check ? check(args, name) : null;
  return own ?? secretAccess(name, args) ?? (check ? null : `${clip(name)} is not on the read-only list`);
}

function checkRedirect(node: SyntaxNode): string | null {
  const op = node.children.find((c) => c !== null && !c.isNamed)?.type ?? '';
  const dest = node.childForFieldName('destination');
  // `cat >/dev/null FILE`: bash reads FILE as an argument, tree-sitter as part of the redirection.
  if (node.childrenForFieldName('destination').length > 1) return 'words after a redirection';
  if (!dest || dest.type === 'process_substitution') return null; // `> >(cmd)`: cmd is checked itself
  const target = resolveArg(dest);
  if (/^\/dev\/(tcp|udp)\//.test(target.text)) return 'redirection to the network';
  if (secretPath(target.text)) return `reads credentials (${clip(target.text)})`;
  if (op === '<' || ((op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(target.text))) return null;
  // Not /dev/tty: that would reach the user's terminal around aish's capture of the output.
  if (!target.dynamic && isSafeSink(target.text) && target.text !== '/dev/tty') return null;
  return `output redirected to ${clip(target.text)}`;
}

/** A `${…}` that assigns (`${x:=v}`) or re-evaluates its value (`${x@P}` runs `$(…)` in it). */
function checkExpansion(node: SyntaxNode): string | null {
  return node.children.some((c) => c !== null && ['=', ':=', '@'].includes(c.type)) ? `${clip(node.text)} assigns or evaluates` : null;
}

function checkTree(root: SyntaxNode, hidden: boolean): string | null {
  // `prefix`: a child of a simple command, where assignments are its prefixes (checked with it);
  // `test`: inside `[ … ]`.
  const stack: Array<{ node: SyntaxNode; nest: number; prefix: boolean; test: boolean }> = [
    { node: root, nest: 0, prefix: false, test: false },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { node, prefix } = item;
    const test = item.test || (node.type === 'test_command' && node.child(0)?.type === '[');
    const nest = NESTING.has(node.type) ? item.nest + 1 : item.nest;
    if (nest > MAX_NESTING) return 'nested too deeply';
    if (node.isMissing || node.type === 'ERROR') return 'does not parse';
    if (!node.isNamed) {
      if (node.type === '&') return 'runs in the background';
      continue;
    }
    let reason: string | null = null;
    if (arithmeticNode(node)) reason = `${clip(node.text)} evaluates arithmetic, which can run $(…) held in values`;
    else if (hidden && unparsedCommands(node).length > 0) reason = 'backquoted commands the parser did not read';
    else if (node.type === 'command') reason = checkCommand(node);
    else if (node.type === 'file_redirect') reason = checkRedirect(node);
    else if (node.type === 'expansion') reason = secretExpansion(node.text) ?? checkExpansion(node);
    else if (node.type === 'simple_expansion') reason = secretExpansion(node.text);
    else if (node.type === 'variable_assignment') reason = prefix ? null : `assigning ${clip(node.text)} changes later commands`;
    else if (!STRUCTURE.has(node.type) && !(test && (TEST_PARTS.has(node.type) || node.type === 'test_command')))
      reason = `${node.type.replace(/_/g, ' ')} is not a plain command`;
    if (reason) return reason;
    for (const c of node.children) if (c) stack.push({ node: c, nest, prefix: node.type === 'command', test });
  }
  return null;
}

/** Needs the shell parser loaded (loadShellParser). */
export function allowlistVerdictSync(command: string): AllowVerdict {
  const parser = getShellParser();
  if (!parser) throw new Error('shell parser not loaded: await loadShellParser() first');
  if (!command.trim()) return no('empty command');
  const joined = joinContinuations(command);
  for (const source of joined === null ? [command] : [command, joined]) {
    const tree = parser.parse(source);
    if (!tree) return no('does not parse');
    try {
      if (tree.rootNode.hasError) return no('does not parse');
      const reason = checkTree(tree.rootNode, mayHideCode(source));
      if (reason) return no(reason);
    } finally {
      tree.delete(); // the tree lives in WebAssembly memory
    }
  }
  return SAFE;
}

export async function allowlistVerdict(command: string): Promise<AllowVerdict> {
  await loadShellParser();
  return allowlistVerdictSync(command);
}
