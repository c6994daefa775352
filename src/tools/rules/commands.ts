/**
 * The simple commands of a command line, as rules see them: every command wherever it sits (lists,
 * pipelines, subshells, `$(…)`, `<(…)`, control flow, function bodies, backquotes the parser left
 * as text, scripts run by `sh -c` / `eval`), each with the commands its wrappers run (`sudo env X=1
 * timeout 5 git push` → … → `git push`), found by the same per-program rules the classifier uses.
 * A line with backslash-newline is read both ways, as the classifier does. What cannot be known from
 * the text (a program in a variable, `sh -c "$x"`, a parse error) is listed as unknown, so a deny
 * rule is not walked around by hiding the program.
 */
import {
  arithmeticCommand,
  arithmeticNode,
  codeInData,
  dataCommand,
  EVALUATES_DATA,
  mayHideCode,
  unparsedCommands,
} from '../safety/hidden-code';
import { ruleFor } from '../safety/program-rules';
import { clip, isSafeSink, programVariable, type RuleContext } from '../safety/rule-kit';
import { programFromStdin, SCRIPT_RULES, shell, SHELLS } from '../safety/script-rules';
import { programName, resolveArg, type Arg, type ShellParser, type SyntaxNode } from '../safety/shell-parser';
import { commandArgv, inputFile, joinContinuations, literalOutput, redirectTexts } from '../safety/syntax';
import { unwrap, WRAPPERS } from '../safety/wrappers';
import { gitSubcommand, opaqueReason } from './reach';

/** One way of reading a simple command: as written, or the command a wrapper in it runs. */
export interface Form {
  argv: Arg[];
  /** Reached only through wrappers that change nothing but how it runs (time, nice, timeout, sh -c…). */
  transparent: boolean;
}

export interface SimpleCommand {
  /** As written. */
  text: string;
  /** The command itself first, then every command its wrappers run. */
  forms: Form[];
  /** Its transparent wrappers end in a script whose commands are listed on their own (`sh -c '…'`). */
  passThrough: boolean;
}

/** A program that may start others the line does not show (`script -qc …`, `make`, `gdb`), or a variable that changes what runs. */
interface Opaque {
  why: string;
  /** The form it is (absent for a variable): an allow rule for exactly it vouches for it. */
  form?: Form;
  /** `SCRIPT:NAME`, for a function of that name defined in the same script. */
  program?: string;
}

export interface LineCommands {
  commands: SimpleCommand[];
  /** Why some command cannot be known from the text. */
  unknown: string[];
  /** What deny rules cannot see through (they fail closed on it). */
  opaque: Opaque[];
  /** Effects no rule covers: output written to files, variables assigned. */
  uncovered: string[];
}

/** Wrappers that run their command as it is: the same user, the same environment. */
const TRANSPARENT = new Set(['time', 'nice', 'nohup', 'timeout', 'stdbuf', 'command', 'exec', 'xargs', 'eval', ...SHELLS]);
const MAX_DEPTH = 6;
const MAX_HOPS = 16;
const MAX_NESTING = 40;
const NESTING = new Set(['subshell', 'command_substitution', 'process_substitution', 'compound_statement', 'function_definition']);
const TRUNCATING_OR_APPENDING = /^(>|>>|>\||&>|&>>|>&)$/;

/** A probe finding that means the wrapper runs text nobody can read here. */
function unresolved(flag: string, name: string): boolean {
  return /with unknown script|of unknown text| … \| /.test(flag) || (WRAPPERS[name]?.join === true && flag.startsWith(`${name} of `));
}

interface Visit {
  node: SyntaxNode;
  up: Visit | null;
  prev: SyntaxNode | null;
  nest: number;
}

class Reader {
  readonly out: LineCommands = { commands: [], unknown: [], opaque: [], uncovered: [] };
  /**
   * Functions the line defines (their bodies are read where they are defined), as `SCRIPT:NAME`:
   * a function is known only in the shell that defines it, not in `sh -c '…'` started from it.
   */
  private readonly functions = new Set<string>();
  private scripts = 0;
  private scope = 0;
  private arithmetic = false;
  private data = false;

  constructor(private readonly parser: ShellParser) {}

  script(source: string, depth: number, lenient = false): void {
    if (depth > MAX_DEPTH) return void this.out.unknown.push('nested too deeply');
    const outer = this.scope;
    this.scope = ++this.scripts;
    try {
      this.read(source, depth, lenient);
    } finally {
      this.scope = outer;
    }
  }

  private read(source: string, depth: number, lenient: boolean): void {
    const joined = joinContinuations(source);
    for (const text of joined !== null && joined !== source ? [source, joined] : [source]) {
      const tree = this.parser.parse(text);
      if (!tree) {
        if (!lenient) this.out.unknown.push('does not parse');
        continue;
      }
      try {
        if (tree.rootNode.hasError && !lenient) this.out.unknown.push('does not parse');
        this.walk(tree.rootNode, depth, mayHideCode(text));
      } finally {
        tree.delete(); // the tree lives in WebAssembly memory
      }
    }
  }

  finish(): LineCommands {
    if (this.arithmetic && this.data) this.out.unknown.push(EVALUATES_DATA);
    this.out.opaque = this.out.opaque.filter((o) => o.program === undefined || !this.functions.has(o.program));
    return this.out;
  }

  private walk(root: SyntaxNode, depth: number, hidden: boolean): void {
    const stack: Visit[] = [{ node: root, up: null, prev: null, nest: 0 }];
    for (let visit = stack.pop(); visit; visit = stack.pop()) {
      const { node } = visit;
      if (node.type === 'command') this.command(visit, depth);
      else if (node.type === 'variable_assignment') this.assignment(node);
      else if (node.type === 'file_redirect') this.redirect(node);
      else if (node.type === 'function_definition') this.functions.add(`${this.scope}:${node.childForFieldName('name')?.text ?? ''}`);
      this.arithmetic ||= arithmeticNode(node);
      if (hidden) {
        this.data ||= codeInData(node);
        for (const s of unparsedCommands(node)) this.script(s, depth + 1);
      }
      const nest = NESTING.has(node.type) ? visit.nest + 1 : visit.nest;
      if (nest > MAX_NESTING) {
        this.out.unknown.push('nested too deeply');
        continue;
      }
      const children: Visit[] = [];
      let prev: SyntaxNode | null = null;
      for (const child of node.children) {
        if (!child) continue;
        children.push({ node: child, up: visit, prev, nest });
        if (child.isNamed) prev = child;
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  private assignment(node: SyntaxNode): void {
    this.out.uncovered.push(`assigns ${clip(node.text)}`);
    const name = node.childForFieldName('name')?.text ?? '';
    if (programVariable(name)) this.out.opaque.push({ why: `sets ${clip(name)} (changes what runs)` });
  }

  private redirect(node: SyntaxNode): void {
    const op = node.children.find((c) => c !== null && !c.isNamed)?.type ?? '';
    const dest = node.childForFieldName('destination');
    if (!dest || dest.type === 'process_substitution' || !TRUNCATING_OR_APPENDING.test(op)) return;
    const target = resolveArg(dest);
    if (op === '>&' && /^(\d+-?|-)$/.test(target.text)) return;
    if (target.dynamic || !isSafeSink(target.text)) this.out.uncovered.push(`writes ${clip(target.text)}`);
  }

  private command(visit: Visit, depth: number): void {
    const argv = commandArgv(visit.node);
    if (!argv[0]) return;
    const stdin = this.stdinOf(visit);
    this.arithmetic ||= arithmeticCommand(argv);
    this.data ||= dataCommand(argv);
    const cmd: SimpleCommand = { text: visit.node.text, forms: [], passThrough: false };
    this.out.commands.push(cmd);
    this.expand(cmd, argv, stdin, depth, 0, true);
    const runner = programFromStdin(unwrap(argv));
    if (runner) {
      const statement = visit.up?.node.type === 'redirected_statement' ? visit.up.node : null;
      const upstream = this.upstreamOf(visit);
      if (
        inputFile(visit.node, statement) !== null ||
        redirectTexts(visit.node, statement) === null ||
        (upstream && literalOutput(upstream) === null)
      )
        this.out.unknown.push(`${runner} runs what it reads`);
    }
  }

  /** Adds a form and follows what its program runs, through the classifier's per-program rules. */
  private expand(cmd: SimpleCommand, argv: Arg[], stdin: string[], depth: number, hops: number, transparent: boolean): void {
    cmd.forms.push({ argv, transparent });
    const first = argv[0];
    if (!first) return;
    const name = programName(first);
    if (name === null) return void this.out.unknown.push(`the program ${clip(first.text)} is known only at run time`);
    if (hops > MAX_HOPS) return void this.out.unknown.push('nested too deeply');
    const git = gitSubcommand(first, argv.slice(1));
    if (git) return this.expand(cmd, git, stdin, depth, hops + 1, transparent);
    const rule = (Object.hasOwn(SCRIPT_RULES, name) ? SCRIPT_RULES[name] : SHELLS.has(name) ? shell : undefined) ?? ruleFor(name);
    const flags: string[] = [];
    const inner: Arg[][] = [];
    const scripts: Array<{ text: string; lenient: boolean }> = [];
    const probe: RuleContext = {
      stdin,
      flag: (f) => void flags.push(f),
      runScript: (text, lenient) => void scripts.push({ text, lenient: lenient === true }),
      runArgv: (a) => void inner.push(a),
      download: () => null,
    };
    rule?.(argv.slice(1), probe, name);
    const why = opaqueReason(name, first, argv.slice(1), flags, inner.length + scripts.length > 0);
    if (why) this.out.opaque.push({ why, form: cmd.forms[cmd.forms.length - 1]!, program: `${this.scope}:${first.text}` });
    for (const f of flags) if (unresolved(f, name)) this.out.unknown.push(f);
    const through = transparent && TRANSPARENT.has(name) && flags.length === 0;
    for (const a of inner) this.expand(cmd, a, stdin, depth, hops + 1, through);
    for (const s of scripts) this.script(s.text, depth + 1, s.lenient);
    if (through && scripts.length > 0 && inner.length === 0) cmd.passThrough = true;
  }

  private upstreamOf(cmd: Visit): SyntaxNode | null {
    const stage = cmd.up?.node.type === 'redirected_statement' ? cmd.up : cmd;
    const pipe = stage.up;
    if (pipe?.node.type !== 'pipeline') return null;
    return stage.prev ?? (pipe.up?.node.type === 'heredoc_redirect' ? (pipe.up.up?.node ?? null) : null);
  }

  /** What the command reads on stdin, as far as the line says (for `echo 'git push' | sh`). */
  private stdinOf(cmd: Visit): string[] {
    const statement = cmd.up?.node.type === 'redirected_statement' ? cmd.up.node : null;
    const texts = redirectTexts(cmd.node, statement) ?? [];
    const upstream = this.upstreamOf(cmd);
    return upstream ? [...texts, ...(literalOutput(upstream) ?? [])] : texts;
  }
}

/** Needs the shell parser loaded (loadShellParser). */
export function lineCommands(parser: ShellParser, line: string): LineCommands {
  const reader = new Reader(parser);
  reader.script(line, 0);
  return reader.finish();
}
