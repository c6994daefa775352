/**
 * What command rules add to a run_command step: the classifier and the allowlist (what every step
 * pays today) against the same plus the rules' check with ten rules, over the harmful and harmless
 * command corpora, measured in pairs that alternate in one process (ratio of medians).
 */
import { performance } from 'node:perf_hooks';
import { formatRule, parseRuleLine } from '../src/config/rule-line';
import { allowlistVerdictSync } from '../src/tools/safety/allowlist';
import { classifyCommandSync } from '../src/tools/safety/classify';
import { loadShellParser } from '../src/tools/safety/shell-parser';
import { checkLine, type SourcedRule } from '../src/tools/rules/check';
import { BENIGN, EVASIONS } from '../test/tools/corpus-data';
import { fmt, median } from './lib';

const RULES = [
  'deny git push',
  'deny rm -rf',
  'deny curl',
  'ask docker',
  'ask kubectl delete',
  'allow npm run test',
  'allow make test',
  'allow git commit',
  'allow exact git status --short',
  'allow cargo build',
].map((line, i): SourcedRule => {
  const r = parseRuleLine(line);
  if ('error' in r) throw new Error(r.error);
  return { ...r, text: formatRule(r), source: `bench[${i}]` };
});

export async function benchRules(rounds = 5): Promise<{ rows: string[][] }> {
  const parser = await loadShellParser();
  const lines = [...EVASIONS, ...BENIGN];
  const today = (l: string) => {
    classifyCommandSync(l);
    allowlistVerdictSync(l);
  };
  const readOnly = (t: string) => allowlistVerdictSync(t).safe;
  const base: number[] = [];
  const withRules: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const l of lines) {
      // Alternate which goes first, so neither always runs on a warmer cache.
      const order = r % 2 === 0;
      for (const w of order ? [false, true] : [true, false]) {
        const t0 = performance.now();
        today(l);
        if (w) checkLine(parser, l, RULES, readOnly);
        (w ? withRules : base).push(performance.now() - t0);
      }
    }
  const b = median(base);
  const w = median(withRules);
  return {
    rows: [
      [
        `run_command prepare, per step (${lines.length} lines × ${rounds}, 10 rules)`,
        `${fmt(w * 1000)} µs`,
        `${fmt(b * 1000)} µs`,
        `${(w / b).toFixed(2)}×`,
      ],
    ],
  };
}
