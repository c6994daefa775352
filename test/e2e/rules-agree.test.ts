/**
 * `aish rules check` and the gate are one decision. Every line of the rules corpus (the cases of
 * test/tools/rules, test/e2e/rules.test.ts and the deny corpus) goes through the built CLI (`aish
 * rules check --json -`, its lines on stdin, one run per rule set) and through the real run_command
 * tool and the gate; a denied line is refused with the rule named, an asked one asks (refused with
 * the rule named when nobody answers, --yes or not), an allowed one runs, and "no rule" leaves the
 * gate to the usual checks. Exit statuses 0/3/4 are checked one command at a time for each decision.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig } from '../../src/config/types';
import { decide, type GatePolicy, type GateSubject } from '../../src/tools/gate';
import { Toolbox } from '../../src/tools/toolbox';
import { runAish, type CliResult } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { ruleCorpus } from '../tools/rules/corpus';

interface CliVerdict {
  command: string;
  decision: 'allow' | 'ask' | 'deny' | null;
  rule: string | null;
  reason: string;
}

const POLICIES: GatePolicy[] = [
  { mode: 'norris', confirmCommands: true, yes: true, alwaysAllowed: false, sandbox: false, sandboxRequired: false },
  { mode: 'norris', confirmCommands: true, yes: false, alwaysAllowed: false, sandbox: true, sandboxRequired: false },
  { mode: 'chat', confirmCommands: true, yes: false, alwaysAllowed: false, sandbox: false, sandboxRequired: false },
];

function config(home: string, rules: string[]): string {
  const cfg = join(home, 'config.json');
  writeFileSync(cfg, JSON.stringify({ safety: { rules } }));
  return cfg;
}

/** The gate's subject for each command, through the real run_command tool of a toolbox with these rules. */
function gateFor(rules: string[], dir: string): (command: string) => Promise<GateSubject> {
  const c: AishConfig = structuredClone(DEFAULT_CONFIG);
  c.safety.rules = rules;
  const toolbox = new Toolbox(c, { logDir: dir, baseDir: dir, dataDir: dir }, { warn: () => {}, changed: () => {} });
  return async (command) => {
    const prepared = await toolbox.find('run_command')!.prepare(JSON.stringify({ command }), { cwd: dir });
    if ('error' in prepared) throw new Error(prepared.error);
    return prepared.gate;
  };
}

/** The corpus by rule set: one CLI run each. */
function byRules(): Map<string, string[]> {
  const sets = new Map<string, string[]>();
  for (const [line, rules] of ruleCorpus()) {
    const key = JSON.stringify(rules);
    sets.set(key, [...(sets.get(key) ?? []), line]);
  }
  return sets;
}

describe('aish rules check and the gate agree on every line of the rules corpus', () => {
  it('the same decision, the same rule', { timeout: 240_000 }, async () => {
    const dir = tmpDir();
    let checked = 0;
    // One CLI run per rule set, three at a time.
    const sets = [...byRules()];
    const runs: Array<{ rules: string[]; lines: string[]; r: CliResult }> = [];
    const next = async (): Promise<void> => {
      for (let set = sets.shift(); set; set = sets.shift()) {
        const [key, lines] = set;
        const rules = JSON.parse(key) as string[];
        const home = tmpDir();
        const input = lines.join('\0');
        const r = await runAish(['--config', config(home, rules), 'rules', 'check', '--json', '-'], {
          timeoutMs: 120_000,
          home,
          cwd: home,
          input,
        });
        runs.push({ rules, lines, r });
      }
    };
    await Promise.all([next(), next(), next()]);
    for (const { rules, lines, r } of runs) {
      const gateSubject = gateFor(rules, dir);
      const verdicts = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as CliVerdict);
      expect(
        verdicts.map((v) => v.command),
        r.stderr,
      ).toEqual(lines);
      const strictest = verdicts.some((v) => v.decision === 'deny') ? 4 : verdicts.some((v) => v.decision === 'ask') ? 3 : 0;
      expect(r.code).toBe(strictest);
      for (const v of verdicts) {
        const gate = await gateSubject(v.command);
        const where = { line: v.command, rules, cli: v.decision, reason: v.reason };
        expect({ ...where, gate: gate.rule?.decision ?? null }).toEqual({ ...where, gate: v.decision });
        for (const policy of POLICIES) {
          const d = decide(gate, policy);
          if (v.decision === 'deny') expect(d, v.command).toEqual({ action: 'refuse', reason: `denied by the rule "${v.rule}"` });
          if (v.decision === 'ask') {
            expect(d.action, v.command).toBe('ask');
            expect(gate.rule?.rule, v.command).toContain(v.rule!);
          }
          if (v.decision === 'allow' && (policy.sandbox || !gate.destructive)) expect(d.action, v.command).toBe('run');
        }
        checked++;
      }
    }
    expect(checked).toBe(ruleCorpus().length);
    expect(checked).toBeGreaterThan(200);
  });

  it('exits 4 for deny, 3 for ask, 0 for allow and for no rule, one command at a time', { timeout: 60_000 }, async () => {
    const home = tmpDir();
    const cfg = config(home, ['deny rm', 'deny git push', 'allow npm run test']);
    const cases: Array<[string, number, string | null]> = [
      ['/usr/lib/git-core/git-push origin', 4, 'deny'],
      ["script -qc 'rm -rf victim' /dev/null", 3, 'ask'],
      ["source /dev/stdin <<< 'rm -rf victim'", 3, 'ask'],
      ['nice rm -rf victim', 4, 'deny'],
      ['npm run test', 0, 'allow'],
      ['ls -la', 0, null],
    ];
    for (const [line, code, decision] of cases) {
      const r = await runAish(['--config', cfg, 'rules', 'check', '--json', line], { home, cwd: home });
      expect({ line, code: r.code, decision: (JSON.parse(r.stdout) as CliVerdict).decision }).toEqual({ line, code, decision });
    }
  });
});
