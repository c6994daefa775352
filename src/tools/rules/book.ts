/**
 * The rules in force for a session: the config's `safety.rules`, then the project's `.aish/rules`
 * once trusted, then this session's "always" answers (exact rules, kept for the session only). The
 * project file is read again at each check, so an edit takes effect at once — as untrusted.
 */
import { formatRule, parseRuleLine, quoteRuleWord } from '../../config/rule-line';
import { loadShellParser } from '../safety/shell-parser';
import { checkLine, type RuleVerdict, type SourcedRule } from './check';
import { loadProjectRules, type ProjectRules } from './project';

export interface ActiveRules {
  rules: SourcedRule[];
  /** The project's rules file, trusted or not; null when there is none. */
  project: ProjectRules | null;
}

export const SESSION_SOURCE = 'this session ("always")';

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
    const [parser, { allowlistVerdictSync }] = await Promise.all([loadShellParser(), import('../safety/allowlist')]);
    return checkLine(parser, line, this.active().rules, (text) => allowlistVerdictSync(text).safe);
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
export function exactWords(argv: ReadonlyArray<{ text: string; dynamic: boolean; glob: boolean }>): string | null {
  if (argv.length === 0 || argv.some((a) => a.dynamic || a.glob)) return null;
  const words = argv.map((a) => quoteRuleWord(a.text)).join(' ');
  return 'error' in parseRuleLine(`allow exact ${words}`) ? null : words;
}
