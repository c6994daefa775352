/**
 * The rules in force for a session: the config's `safety.rules`, then the project's `.aish/rules`
 * once trusted, then this session's "always" answers (exact rules, kept for the session only). The
 * project file is read again at each check, so an edit takes effect at once — as untrusted.
 */
import { formatRule, parseRuleLine, quoteRuleWord, type RuleDecision } from '../../config/rule-line';
import type { RuleVerdict, SourcedRule } from './check';
import { loadProjectRules, type ProjectRules } from './project';

export interface ActiveRules {
  rules: SourcedRule[];
  /** The project's rules file, trusted or not; null when there is none. */
  project: ProjectRules | null;
}

export interface GateRuling {
  rule?: { decision: RuleDecision; rule: string };
  alwaysKey?: string;
}

const SESSION_SOURCE = 'this session ("always")';

export class RuleBook {
  private readonly session: SourcedRule[] = [];

  constructor(
    private readonly configRules: () => readonly string[],
    /** Where trust is recorded; null: no project file is ever trusted. */
    readonly dataDir: string | null,
    private readonly cwd: () => string = () => process.cwd(),
  ) {}

  project(): ProjectRules | null {
    return loadProjectRules(this.cwd(), this.dataDir);
  }

  active(): ActiveRules {
    const rules: SourcedRule[] = [];
    this.configRules().forEach((line, i) => {
      const r = parseRuleLine(line);
      if (!('error' in r)) rules.push({ ...r, text: formatRule(r), source: `config safety.rules[${i}]` });
    });
    const project = this.project();
    if (project?.trust === 'trusted') rules.push(...project.rules);
    rules.push(...this.session);
    return { rules, project };
  }

  /** The rules' decision on a command line. */
  async check(line: string): Promise<RuleVerdict> {
    return (await this.checker())(line, this.active().rules);
  }

  /** The line checker; the parser and the matcher load with the first check, not at start-up. */
  private async checker(): Promise<(line: string, rules: SourcedRule[]) => RuleVerdict> {
    const [{ loadShellParser }, { checkLine }, { allowlistVerdictSync }] = await Promise.all([
      import('../safety/shell-parser'),
      import('./check'),
      import('../safety/allowlist'),
    ]);
    const parser = await loadShellParser();
    return (line, rules) => checkLine(parser, line, rules, (text) => allowlistVerdictSync(text).safe);
  }

  /**
   * What the gate gets: the deciding rule (an allow only for a step in aish's own directory: a
   * `cwd` the model names is not what the rule vouched for), and the words "always" would remember
   * when the line is one simple command.
   */
  async gateRuling(line: string, elsewhere: boolean): Promise<GateRuling> {
    const v = await this.check(line);
    const out: GateRuling = {};
    // An ask that a deny rule caused (the line may reach what it denies) says why, the rule named in it.
    const named = v.rule && v.decision === v.rule.decision ? v.rule.text : v.reason;
    if (v.decision && !(v.decision === 'allow' && elsewhere)) out.rule = { decision: v.decision, rule: named };
    const only = v.commands.length === 1 && v.unknown.length === 0 && v.uncovered.length === 0 ? v.commands[0]! : null;
    const key = only && only.forms[0] ? exactWords(only.forms[0].argv) : null;
    if (key !== null) out.alwaysKey = key;
    return out;
  }

  /**
   * The strongest deny or ask rule (deny first) that a command in `texts` itself meets, for command
   * text inside another tool's arguments (an MCP server that runs what it is given). Not the ask for
   * what cannot be seen: such text is mostly not a command line, and prose would ask every time.
   */
  async argumentRuling(texts: readonly string[]): Promise<GateRuling['rule']> {
    const rules = this.active().rules;
    if (!rules.some((r) => r.decision !== 'allow')) return undefined;
    const check = await this.checker();
    let found: GateRuling['rule'];
    for (const text of texts) {
      const v = check(text, rules);
      if (v.decision === null || v.decision === 'allow' || v.command === undefined) continue;
      const rule = { decision: v.decision, rule: v.rule && v.decision === v.rule.decision ? v.rule.text : v.reason };
      if (rule.decision === 'deny') return rule;
      found ??= rule;
    }
    return found;
  }

  /** "always": an exact allow rule for one simple command's words, for this session. */
  remember(words: string): SourcedRule | null {
    const r = parseRuleLine(`allow exact ${words}`);
    if ('error' in r) return null;
    const rule = { ...r, text: formatRule(r), source: SESSION_SOURCE };
    if (!this.session.some((s) => s.text === rule.text)) this.session.push(rule);
    return rule;
  }
}

/** The words of a command as an exact rule would spell them; null when some word is not static. */
function exactWords(argv: ReadonlyArray<{ text: string; dynamic: boolean; glob: boolean }>): string | null {
  if (argv.length === 0 || argv.some((a) => a.dynamic || a.glob)) return null;
  const words = argv.map((a) => quoteRuleWord(a.text)).join(' ');
  return 'error' in parseRuleLine(`allow exact ${words}`) ? null : words;
}
