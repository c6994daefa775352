/**
 * Decides whether a shell command is destructive, for the gate that runs or asks before the
 * model's commands. The command is parsed with tree-sitter-bash and every simple command in it is
 * checked, wherever it sits: pipelines, lists, subshells, groups, substitutions, control flow,
 * function bodies, heredocs, and strings run by `sh -c`/`eval`/`ssh` (re-parsed). Words are
 * compared after quote removal, so `"rm"`, `\rm`, `r\m` and `/bin/rm` are all `rm`. Per-program
 * rules live in program-rules.ts, wrappers.ts, interpreters.ts and script-rules.ts. Fails closed:
 * what does not parse, nests too deeply or runs a program whose name is only known at run time
 * counts as destructive.
 */
import { getShellParser, loadShellParser, programName, resolveArg, type Arg, type ShellParser, type SyntaxNode } from './shell-parser';
import { DOWNLOADERS, ruleFor } from './program-rules';
import { clip, isSafeSink, type RuleContext } from './rule-kit';
import { programFromStdin, SCRIPT_RULES, shell, SHELLS } from './script-rules';
import { unwrap } from './wrappers';

export interface SafetyVerdict {
  destructive: boolean;
  /** Short, for the user: e.g. `rm -rf`, `curl … | sh`, `> notes.txt (overwrites)`. */
  reasons: string[];
  /** The command did not parse as bash (always destructive). */
  unparseable?: boolean;
}

export interface SafetyOptions {
  /** `safety.extraDestructivePatterns`: strings are regular-expression sources; RegExps used as is. */
  extraPatterns?: Array<string | RegExp>;
}

/** `sh -c 'sh -c "…"'` levels; deeper is refused rather than followed. */
const MAX_SCRIPT_DEPTH = 6;
/** Nested `$( … )`, `( … )`, `{ …; }`, loops and conditionals within one script. */
const MAX_NESTING = 40;
/** Wrappers around one command (`sudo env nice timeout 5 …`), also bounds xargs/find chains. */
const MAX_HOPS = 16;
const NESTING = new Set([
  'subshell', 'command_substitution', 'process_substitution', 'compound_statement', 'function_definition',
  'if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement',
]);
/** Output redirections that truncate their target (`>&` only when the target is a file). */
const TRUNCATING = new Set(['>', '>|', '&>', '>&']);
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
export const EXTRA_PATTERN_REASON = 'matches safety.extraDestructivePatterns';
const TOO_DEEP = 'nested too deeply';

interface State {
  parser: ShellParser;
  reasons: Set<string>;
  unparseable: boolean;
  patterns: RegExp[];
}

/** The words of a simple command, program first; prefix assignments and redirections left out. */
function commandArgv(node: SyntaxNode): Arg[] {
  const argv: Arg[] = [];
  for (const child of node.namedChildren) {
    if (!child || child.type === 'comment' || child.type === 'variable_assignment' || REDIRECTS.has(child.type)) continue;
    if (child.type === 'command_name' || argv.length > 0) argv.push(resolveArg(child));
  }
  return argv;
}

/** The simple command a pipeline stage runs (`cmd` or `cmd 2>/dev/null`), if it is one. */
function commandOf(stage: SyntaxNode): SyntaxNode | null {
  if (stage.type === 'command') return stage;
  if (stage.type === 'redirected_statement') return stage.namedChildren.find((c) => c?.type === 'command') ?? null;
  return null;
}

/** Heredoc bodies and here-strings attached to a command or to the statement around it. */
function redirectTexts(cmd: SyntaxNode, statement: SyntaxNode | null): string[] {
  const texts: string[] = [];
  for (const owner of statement ? [cmd, statement] : [cmd])
    for (const r of owner.namedChildren) {
      if (r?.type === 'heredoc_redirect') {
        const body = r.namedChildren.find((c) => c?.type === 'heredoc_body');
        if (body) texts.push(body.text);
      } else if (r?.type === 'herestring_redirect') {
        const word = r.namedChildren.find((c) => c !== null);
        const a = word && resolveArg(word);
        if (a && !a.dynamic) texts.push(a.text);
      }
    }
  return texts;
}

/** Text a pipeline stage writes that is known statically: echo/printf arguments, cat's heredoc. */
function fedText(stage: SyntaxNode): string[] {
  const cmd = commandOf(stage);
  if (!cmd) return [];
  const argv = unwrap(commandArgv(cmd));
  const name = argv[0] && programName(argv[0]);
  if (name === 'cat') return redirectTexts(cmd, cmd === stage ? null : stage);
  if (name !== 'echo' && name !== 'printf') return [];
  let words = argv.slice(1).filter((a) => !a.dynamic).map((a) => a.text);
  if (name === 'echo') while (words[0] && /^-[neE]+$/.test(words[0])) words = words.slice(1);
  const text = words.join(' ');
  return [name === 'printf' || argv.some((a) => a.text === '-e') ? text.replace(/\\n/g, '\n').replace(/\\t/g, '\t') : text];
}

/**
 * A node met by the walk, with its ancestors: Node.parent and the sibling getters cost a search from
 * the root in tree-sitter, which is quadratic on a list of thousands of commands.
 */
interface Visit {
  node: SyntaxNode;
  up: Visit | null;
  /** Previous named sibling. */
  prev: SyntaxNode | null;
  nest: number;
}

/** What a command reads on stdin, as far as the script itself says. */
function stdinOf(cmd: Visit): string[] {
  const statement = cmd.up?.node.type === 'redirected_statement' ? cmd.up : null;
  const texts = redirectTexts(cmd.node, statement?.node ?? null);
  const stage = statement ?? cmd;
  const pipe = stage.up;
  if (pipe?.node.type !== 'pipeline') return texts;
  // `cat <<EOF | psql` puts the pipeline inside the heredoc redirect of `cat`.
  const upstream = stage.prev ?? (pipe.up?.node.type === 'heredoc_redirect' ? (pipe.up.up?.node ?? null) : null);
  return upstream ? [...texts, ...fedText(upstream)] : texts;
}

/** A downloader (curl, wget, …) run anywhere inside a node, e.g. in `<(curl …)` or `$(curl …)`. */
function findDownload(root: SyntaxNode): string | null {
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'command') {
      const argv = unwrap(commandArgv(node));
      const name = argv[0] && programName(argv[0]);
      if (name && DOWNLOADERS.has(name)) return name;
    }
    for (const c of node.namedChildren) if (c) stack.push(c);
  }
  return null;
}

// ---- checks ------------------------------------------------------------------------------------

function flag(state: State, reason: string): void {
  state.reasons.add(reason);
}

function matchPatterns(state: State, text: string): void {
  for (const re of state.patterns) {
    re.lastIndex = 0; // a /g or /y pattern keeps state between test() calls
    if (re.test(text)) return flag(state, EXTRA_PATTERN_REASON);
  }
}

function runArgv(state: State, argv: Arg[], stdin: string[], depth: number, hops: number): void {
  const first = argv[0];
  if (!first) return;
  if (state.patterns.length > 0) matchPatterns(state, argv.map((a) => a.text).join(' '));
  if (hops > MAX_HOPS) return flag(state, TOO_DEEP);
  const name = programName(first);
  if (name === null) return flag(state, `unknown program ${clip(first.text)}`);
  const rule = (Object.hasOwn(SCRIPT_RULES, name) ? SCRIPT_RULES[name] : SHELLS.has(name) ? shell : undefined) ?? ruleFor(name);
  if (!rule) return;
  const ctx: RuleContext = {
    stdin,
    flag: (reason) => flag(state, reason),
    runScript: (script, lenient) => classifyScript(state, script, depth + 1, lenient),
    runArgv: (inner, via) => {
      if (!via) return runArgv(state, inner, stdin, depth, hops + 1);
      // xargs / find -exec: report as `xargs rm` rather than the inner rule's wording.
      const outer = state.reasons;
      state.reasons = new Set();
      runArgv(state, inner, [], depth, hops + 1);
      const found = state.reasons.size > 0;
      state.reasons = outer;
      if (found && inner[0]) flag(state, `${via} ${programName(inner[0]) ?? clip(inner[0].text)}`);
    },
    download: (arg) => (arg.node ? findDownload(arg.node) : null),
  };
  rule(argv.slice(1), ctx, name);
}

function checkRedirect(state: State, node: SyntaxNode): void {
  const op = node.children.find((c) => c !== null && !c.isNamed)?.type;
  if (!op || !TRUNCATING.has(op)) return;
  const dest = node.childForFieldName('destination');
  if (!dest || dest.type === 'process_substitution') return;
  const target = resolveArg(dest);
  if (!target.dynamic && isSafeSink(target.text)) return;
  if (op === '>&' && (dest.type === 'number' || /^(\d+-?|-)$/.test(target.text))) return; // 2>&1, >&-
  flag(state, `> ${clip(target.text)} (overwrites)`);
}

/** `curl … | sh`, `wget -O- … | sudo python3`: a download feeding a program that runs stdin. */
function checkPipeline(state: State, node: SyntaxNode): void {
  let download: string | null = null; // the first downloader upstream of the current stage
  for (const stage of node.namedChildren) {
    if (!stage || stage.type === 'comment') continue;
    const cmd = download ? commandOf(stage) : null;
    const runner = cmd && programFromStdin(unwrap(commandArgv(cmd)));
    if (runner) flag(state, `${download} … | ${runner}`);
    download ??= findDownload(stage);
  }
}

function markUnparseable(state: State): void {
  state.unparseable = true;
  flag(state, 'unparseable command');
}

/** Walks every node (iteratively: left-nested lists of thousands of commands are fine). */
function walk(state: State, root: SyntaxNode, depth: number, lenient: boolean): void {
  const stack: Visit[] = [{ node: root, up: null, prev: null, nest: 0 }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { node, nest } = visit;
    switch (node.type) {
      case 'command':
        runArgv(state, commandArgv(node), stdinOf(visit), depth, 0);
        break;
      case 'file_redirect':
        checkRedirect(state, node);
        break;
      case 'pipeline':
        checkPipeline(state, node);
        break;
    }
    if (!lenient && (node.isMissing || node.type === 'ERROR')) markUnparseable(state);
    const level = NESTING.has(node.type) ? nest + 1 : nest;
    if (level > MAX_NESTING) {
      flag(state, TOO_DEEP);
      continue;
    }
    const children: Visit[] = [];
    let prev: SyntaxNode | null = null;
    for (const child of node.children) {
      if (!child) continue;
      children.push({ node: child, up: visit, prev, nest: level });
      if (child.isNamed) prev = child;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** Classifies a script; `lenient` for shell strings found inside other code (parse errors ignored). */
function classifyScript(state: State, source: string, depth: number, lenient = false): void {
  if (depth > MAX_SCRIPT_DEPTH) return flag(state, TOO_DEEP);
  if (state.patterns.length > 0) matchPatterns(state, source);
  const tree = state.parser.parse(source);
  if (!tree) return lenient ? undefined : markUnparseable(state);
  try {
    if (tree.rootNode.hasError && !lenient) markUnparseable(state);
    walk(state, tree.rootNode, depth, lenient);
  } finally {
    tree.delete(); // the tree lives in WebAssembly memory
  }
}

const compiled = new WeakMap<Array<string | RegExp>, RegExp[]>();
function compilePatterns(patterns: Array<string | RegExp> | undefined): RegExp[] {
  if (!patterns || patterns.length === 0) return [];
  let res = compiled.get(patterns);
  if (!res) {
    res = patterns.map((p) => {
      if (typeof p !== 'string') return p;
      try {
        return new RegExp(p);
      } catch {
        return new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')); // not a valid regex: match it literally
      }
    });
    compiled.set(patterns, res);
  }
  return res;
}

/** Same as classifyCommand, synchronous; throws if loadShellParser() has not finished. */
export function classifyCommandSync(command: string, opts: SafetyOptions = {}): SafetyVerdict {
  const parser = getShellParser();
  if (!parser) throw new Error('shell parser not loaded: await loadShellParser() first');
  const state: State = { parser, reasons: new Set(), unparseable: false, patterns: compilePatterns(opts.extraPatterns) };
  classifyScript(state, command, 0);
  const reasons = [...state.reasons];
  const verdict: SafetyVerdict = { destructive: reasons.length > 0 || state.unparseable, reasons };
  if (state.unparseable) verdict.unparseable = true;
  return verdict;
}

export async function classifyCommand(command: string, opts?: SafetyOptions): Promise<SafetyVerdict> {
  await loadShellParser();
  return classifyCommandSync(command, opts);
}

export async function isDestructive(command: string, opts?: SafetyOptions): Promise<boolean> {
  return (await classifyCommand(command, opts)).destructive;
}
