/**
 * Decides whether a shell command is destructive, for the gate that runs or asks before the
 * model's commands. The command is parsed with tree-sitter-bash and every simple command in it is
 * checked, wherever it sits: pipelines, lists, subshells, groups, substitutions, control flow,
 * function bodies, heredocs, and strings run by `sh -c`/`eval`/`ssh` (re-parsed). Words are
 * compared after quote removal, so `"rm"`, `\rm`, `r\m` and `/bin/rm` are all `rm`, and a script
 * with backslash-newline is also read joined, as bash reads it (`r\⏎m` is `rm`). Per-program rules
 * live in program-rules.ts (the table), git-rules.ts, rewrite-rules.ts, launchers.ts,
 * system-rules.ts, wrappers.ts, interpreters.ts and script-rules.ts. Fails closed: what does not
 * parse, nests too deeply, runs a program whose name is only known at run time or named by a path
 * of its own, or feeds a shell text nobody can read here, counts as destructive.
 */
import { getShellParser, loadShellParser, programName, resolveArg, type Arg, type ShellParser, type SyntaxNode } from './shell-parser';
import { arithmeticCommand, arithmeticNode, codeInData, dataCommand, EVALUATES_DATA, mayHideCode, unparsedCommands } from './hidden-code';
import { compilePatterns, matchesAny } from './patterns';
import { findDownload, ruleFor } from './program-rules';
import { clip, isSafeSink, programVariable, runsLater, type RuleContext } from './rule-kit';
import { programFromStdin, SCRIPT_RULES, shell, SHELLS } from './script-rules';
import { secretAccess, secretInNode, secretPath } from './secrets';
import { commandArgv, commandOf, inputFile, joinContinuations, literalOutput, redirectTexts, wordsAfterRedirects } from './syntax';
import { unwrap } from './wrappers';

export interface SafetyVerdict {
  destructive: boolean;
  /** Short, for the user: e.g. `rm -rf`, `curl … | sh`, `> notes.txt (overwrites)`. */
  reasons: string[];
  /** The command did not parse as bash (always destructive). */
  unparseable?: boolean;
  /** It reads credentials or the environment (its output would reach the model). */
  secrets?: boolean;
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
  'subshell',
  'command_substitution',
  'process_substitution',
  'compound_statement',
  'function_definition',
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
]);
/** Redirections that truncate or overwrite their target (`>&` only when the target is a file). */
const TRUNCATING = new Set(['>', '>|', '&>', '>&', '<>']);
/** Where a program named by path is still the system's own (`/bin/rm` is `rm`, `./rm` is a script). */
const SYSTEM_PROGRAM = /^\/(usr\/(local\/)?|opt\/homebrew\/)?s?bin\/[^/]+$/;
export const EXTRA_PATTERN_REASON = 'matches safety.extraDestructivePatterns';
const TOO_DEEP = 'nested too deeply';

interface State {
  parser: ShellParser;
  reasons: Set<string>;
  unparseable: boolean;
  patterns: RegExp[];
  /** Seen anywhere: a place that evaluates values as code, and data that may be code (hidden-code.ts). */
  arithmetic: boolean;
  codeInData: boolean;
  secrets: boolean;
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

/** The statement a command sits in when it carries redirections (`cmd <<EOF`, `cmd < f`). */
const statementOf = (cmd: Visit): Visit | null => (cmd.up?.node.type === 'redirected_statement' ? cmd.up : null);

/** The pipeline stage feeding this command's stdin, if any. */
function upstreamOf(cmd: Visit): SyntaxNode | null {
  const stage = statementOf(cmd) ?? cmd;
  const pipe = stage.up;
  if (pipe?.node.type !== 'pipeline') return null;
  // `cat <<EOF | psql` puts the pipeline inside the heredoc redirect of `cat`.
  return stage.prev ?? (pipe.up?.node.type === 'heredoc_redirect' ? (pipe.up.up?.node ?? null) : null);
}

/** What a command reads on stdin, as far as the script itself says. */
function stdinOf(cmd: Visit): string[] {
  const texts = redirectTexts(cmd.node, statementOf(cmd)?.node ?? null) ?? [];
  const upstream = upstreamOf(cmd);
  return upstream ? [...texts, ...(literalOutput(upstream) ?? [])] : texts;
}

/**
 * A shell or interpreter taking its program from stdin runs only text the script spells out: a
 * heredoc, a here-string, echo or printf of static words. Anything else (`xxd -r | sh`,
 * `base64 -d | bash`, `sh < x.sh`, `python3 <<< "$(…)"`) is code nobody has read.
 */
function checkStdinProgram(state: State, cmd: Visit, argv: Arg[]): void {
  const runner = programFromStdin(unwrap(argv));
  if (!runner) return;
  const statement = statementOf(cmd)?.node ?? null;
  const file = inputFile(cmd.node, statement);
  if (file !== null) return flag(state, `${runner} < ${clip(file)}`);
  const upstream = upstreamOf(cmd);
  if (redirectTexts(cmd.node, statement) === null || (upstream && literalOutput(upstream) === null)) flag(state, `… | ${runner}`);
}

// ---- checks ------------------------------------------------------------------------------------

function flag(state: State, reason: string): void {
  state.reasons.add(reason);
}

function flagSecret(state: State, reason: string): void {
  state.secrets = true;
  flag(state, reason);
}

function matchPatterns(state: State, text: string): void {
  if (matchesAny(state.patterns, text)) flag(state, EXTRA_PATTERN_REASON);
}

function runArgv(state: State, argv: Arg[], stdin: string[], depth: number, hops: number): void {
  const first = argv[0];
  if (!first) return;
  if (state.patterns.length > 0) matchPatterns(state, argv.map((a) => a.text).join(' '));
  if (hops > MAX_HOPS) return flag(state, TOO_DEEP);
  const name = programName(first);
  if (name === null) return flag(state, `unknown program ${clip(first.text)}`);
  // A program named by a path of its own (`./x.sh`, `bin/tool`) is a file nobody has read.
  if (first.text.includes('/') && !SYSTEM_PROGRAM.test(first.text)) flag(state, `runs ${clip(first.text)}`);
  const secret = secretAccess(name, argv.slice(1));
  if (secret) flagSecret(state, secret);
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
  const dest = node.childForFieldName('destination');
  if (!op || !dest || dest.type === 'process_substitution') return;
  const target = resolveArg(dest);
  if (secretPath(target.text)) flagSecret(state, `${op} ${clip(target.text)} (credentials)`);
  if ((op === '>>' || op === '&>>') && runsLater(target.text)) return flag(state, `>> ${clip(target.text)} (runs later)`);
  if (!TRUNCATING.has(op)) return;
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
function walk(state: State, root: SyntaxNode, depth: number, lenient: boolean, hidden: boolean): void {
  const stack: Visit[] = [{ node: root, up: null, prev: null, nest: 0 }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { node, nest } = visit;
    switch (node.type) {
      case 'command': {
        const argv = [...commandArgv(node), ...wordsAfterRedirects([node, statementOf(visit)?.node ?? null])];
        runArgv(state, argv, stdinOf(visit), depth, 0);
        checkStdinProgram(state, visit, argv);
        state.arithmetic ||= arithmeticCommand(argv);
        state.codeInData ||= dataCommand(argv);
        break;
      }
      case 'variable_assignment': {
        const name = node.childForFieldName('name')?.text ?? '';
        if (programVariable(name)) flag(state, `${clip(name)}=… (changes what runs)`);
        break;
      }
      case 'file_redirect':
        checkRedirect(state, node);
        break;
      case 'pipeline':
        checkPipeline(state, node);
        break;
    }
    const secret = secretInNode(node);
    if (secret) flagSecret(state, secret);
    if (!lenient && (node.isMissing || node.type === 'ERROR')) markUnparseable(state);
    state.arithmetic ||= arithmeticNode(node);
    if (hidden) {
      state.codeInData ||= codeInData(node);
      for (const script of unparsedCommands(node)) classifyScript(state, script, depth + 1);
    }
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

/**
 * Classifies a script; `lenient` for shell strings found inside other code (parse errors ignored).
 * With backslash-newline in it, both as tree-sitter reads it and joined as bash reads it (`sh -c`
 * strings too: the inner shell joins them).
 */
function classifyScript(state: State, source: string, depth: number, lenient = false): void {
  if (depth > MAX_SCRIPT_DEPTH) return flag(state, TOO_DEEP);
  classifyText(state, source, depth, lenient);
  const joined = joinContinuations(source);
  if (joined !== null && joined !== source) classifyText(state, joined, depth, lenient);
}

function classifyText(state: State, source: string, depth: number, lenient: boolean): void {
  if (state.patterns.length > 0) matchPatterns(state, source);
  const tree = state.parser.parse(source);
  if (!tree) return lenient ? undefined : markUnparseable(state);
  try {
    if (tree.rootNode.hasError && !lenient) markUnparseable(state);
    walk(state, tree.rootNode, depth, lenient, mayHideCode(source));
  } finally {
    tree.delete(); // the tree lives in WebAssembly memory
  }
}

/** Same as classifyCommand, synchronous; throws if loadShellParser() has not finished. */
export function classifyCommandSync(command: string, opts: SafetyOptions = {}): SafetyVerdict {
  const parser = getShellParser();
  if (!parser) throw new Error('shell parser not loaded: await loadShellParser() first');
  const state: State = {
    parser,
    reasons: new Set(),
    unparseable: false,
    patterns: compilePatterns(opts.extraPatterns),
    arithmetic: false,
    codeInData: false,
    secrets: false,
  };
  classifyScript(state, command, 0);
  if (state.arithmetic && state.codeInData) flag(state, EVALUATES_DATA);
  const reasons = [...state.reasons];
  const verdict: SafetyVerdict = { destructive: reasons.length > 0 || state.unparseable, reasons };
  if (state.unparseable) verdict.unparseable = true;
  if (state.secrets) verdict.secrets = true;
  return verdict;
}

export async function classifyCommand(command: string, opts?: SafetyOptions): Promise<SafetyVerdict> {
  await loadShellParser();
  return classifyCommandSync(command, opts);
}

export async function isDestructive(command: string, opts?: SafetyOptions): Promise<boolean> {
  return (await classifyCommand(command, opts)).destructive;
}
