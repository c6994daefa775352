/**
 * The rules' decision on a command line. Every simple command of the line is checked, in every
 * form its wrappers give it; the strictest match wins (deny, then ask, then allow), and among rules
 * of the same decision the first in order is named. A line is allowed by rule only when every simple
 * command in it is allowed by a rule (or is read-only by itself) and it has no effect that is not a
 * command (output to a file, an assignment). When some command cannot be known from the text,
 * a line that a deny or ask rule might match asks instead of running; and while a deny rule exists,
 * so does a line with a program that may start others unseen (reach.ts) that no allow rule names.
 */
import type { CommandRule, RuleDecision } from '../../config/rule-line';
import type { ShellParser } from '../safety/shell-parser';
import { lineCommands, type Form, type SimpleCommand } from './commands';
import { matchRule } from './match';

export interface SourcedRule extends CommandRule {
  /** The rule as a line (`deny git push`). */
  text: string;
  /** Where it came from: `config safety.rules[0]`, `/p/.aish/rules:3`, `this session ("always")`. */
  source: string;
}

export interface RuleVerdict {
  /** null: no rule decides; the usual checks apply. */
  decision: RuleDecision | null;
  /** The rule that decided; for an ask because part of the line cannot be seen, the rule it may meet. */
  rule?: SourcedRule;
  /** The simple command it matched, as written, and the words it matched in (after unwrapping). */
  command?: string;
  matched?: string;
  /** One line, for people and the model. */
  reason: string;
  /** The line's simple commands. */
  commands: SimpleCommand[];
  /** Something in the line cannot be known from its text. */
  unknown: string[];
  /** Effects of the line that are not commands (output to files, assignments). */
  uncovered: string[];
}

const words = (f: Form): string => f.argv.map((a) => a.text).join(' ');

interface Hit {
  rule: SourcedRule;
  cmd: SimpleCommand;
  form: Form;
  maybe: boolean;
}

/** The first rule of this decision (in order) that matches some form of some command. */
function firstHit(rules: SourcedRule[], commands: SimpleCommand[], decision: RuleDecision): Hit | null {
  let maybe: Hit | null = null;
  for (const rule of rules) {
    if (rule.decision !== decision) continue;
    for (const cmd of commands)
      for (const form of cmd.forms) {
        const m = matchRule(rule, form.argv);
        if (m === 'yes') return { rule, cmd, form, maybe: false };
        if (m === 'maybe') maybe ??= { rule, cmd, form, maybe: true };
      }
  }
  return maybe;
}

/** An allow rule names exactly this command: the user vouched for what it runs. */
const vouched = (rules: SourcedRule[], form: Form): boolean =>
  form.transparent && rules.some((r) => r.decision === 'allow' && matchRule(r, form.argv) === 'yes');

/** Needs the shell parser loaded. `readOnly` says whether a simple command is read-only by itself. */
export function checkLine(parser: ShellParser, line: string, rules: SourcedRule[], readOnly: (text: string) => boolean): RuleVerdict {
  const lc = lineCommands(parser, line);
  const base = { commands: lc.commands, unknown: lc.unknown, uncovered: lc.uncovered };
  const found = (decision: RuleDecision, h: Hit, reason: string): RuleVerdict => ({
    ...base,
    decision,
    rule: h.rule,
    command: h.cmd.text,
    matched: words(h.form),
    reason,
  });

  const deny = firstHit(rules, lc.commands, 'deny');
  if (deny && !deny.maybe) return found('deny', deny, `denied by the rule "${deny.rule.text}"`);
  if (deny) return found('ask', deny, `asks: ${deny.cmd.text} may be denied by "${deny.rule.text}" (part of it is known only at run time)`);
  const denied = rules.find((r) => r.decision === 'deny');
  const strict = denied ?? rules.find((r) => r.decision === 'ask');
  if (strict && lc.unknown.length > 0)
    return { ...base, decision: 'ask', rule: strict, reason: `asks: cannot check it against "${strict.text}" (${lc.unknown[0]})` };
  const ask = firstHit(rules, lc.commands, 'ask');
  if (ask) return found('ask', ask, `asks by the rule "${ask.rule.text}"`);
  // Fail closed: a program that may start others the line does not show could start a denied one.
  const hidden = denied && lc.opaque.find((o) => !o.form || !vouched(rules, o.form));
  if (denied && hidden)
    return {
      ...base,
      decision: 'ask',
      rule: denied,
      reason: `asks: cannot see what it runs (${hidden.why}): it may be what "${denied.text}" denies`,
    };

  let allowed: Hit | null = null;
  for (const cmd of lc.commands) {
    if (cmd.passThrough) continue;
    let hit: Hit | null = null;
    for (const rule of rules) {
      if (rule.decision !== 'allow') continue;
      const form = cmd.forms.find((f) => f.transparent && matchRule(rule, f.argv) === 'yes');
      if (form) {
        hit = { rule, cmd, form, maybe: false };
        break;
      }
    }
    allowed ??= hit;
    if (!hit && !readOnly(cmd.text))
      return { ...base, decision: null, reason: allowed ? `no allow rule for ${cmd.text}` : 'no rule matches' };
  }
  if (!allowed) return { ...base, decision: null, reason: 'no rule matches' };
  const gap = lc.unknown[0] ?? lc.uncovered[0];
  if (gap) return { ...base, decision: null, reason: `no rule covers all of it (${gap})` };
  return found('allow', allowed, `allowed by the rule "${allowed.rule.text}"`);
}
