/** `safety.rules`: a list of rule lines, each checked so a bad one is named by its place and text. */
import type { Checker } from './checker';
import { parseRuleLine } from './rule-line';
import { ConfigError } from '../util/errors';

export function validateRules(c: Checker, v: unknown): string[] {
  if (!Array.isArray(v)) c.fail('safety.rules', 'a list of rules such as "deny git push"', v);
  return v.map((line: unknown, i: number) => {
    const key = `safety.rules[${i}]`;
    if (typeof line !== 'string') c.fail(key, 'a rule such as "deny git push" (a string)', line);
    const r = parseRuleLine(line);
    if ('error' in r) {
      const shown = JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
      throw new ConfigError(
        `config ${c.file}: ${key} ${shown}: ${r.error} (e.g. "deny git push", "allow npm run test"; see docs/rules.md)`,
      );
    }
    return line.trim();
  });
}
