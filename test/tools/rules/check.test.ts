// The rules' decision on command lines, on the real tree-sitter-bash parser: wrappers, compound
// lines, quoting, paths, continuations and hidden programs must not walk around a deny rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatRule, parseRuleLine } from '../../../src/config/rule-line';
import { allowlistVerdictSync } from '../../../src/tools/safety/allowlist';
import { loadShellParser, type ShellParser } from '../../../src/tools/safety/shell-parser';
import { checkLine, type SourcedRule } from '../../../src/tools/rules/check';
import { CLUSTER_DENIED, CLUSTER_PASSED, DECISIONS, NOT_DENIED, RUN_TIME, WRAPPED } from './corpus';

let parser: ShellParser;
beforeAll(async () => {
  parser = await loadShellParser();
});

const rules = (...lines: string[]): SourcedRule[] =>
  lines.map((l, i) => {
    const r = parseRuleLine(l);
    if ('error' in r) throw new Error(`${l}: ${r.error}`);
    return { ...r, text: formatRule(r), source: `test[${i}]` };
  });
const check = (line: string, ...lines: string[]) => checkLine(parser, line, rules(...lines), (t) => allowlistVerdictSync(t).safe);
const decision = (line: string, ...lines: string[]) => check(line, ...lines).decision;

describe('a deny rule holds against every wrapper and spelling', () => {
  it.each(WRAPPED)('%s', (line) => {
    const v = check(line, 'allow git', 'deny git push');
    expect(v.decision).toBe('deny');
    expect(v.rule?.text).toBe('deny git push');
  });

  it('names the simple command and the words it matched in', () => {
    const v = check("ls && sudo env X=1 timeout 5 sh -c 'git push origin'", 'deny git push');
    expect(v).toMatchObject({ decision: 'deny', command: 'git push origin', matched: 'git push origin' });
    const w = check('ls; sudo git push', 'deny git push');
    expect(w).toMatchObject({ command: 'sudo git push', matched: 'git push' });
  });
});

describe('what a deny rule does not match', () => {
  it.each(NOT_DENIED)('%s', (line) => {
    expect(decision(line, 'deny git push')).toBeNull();
  });
});

describe('a command known only at run time asks when deny or ask rules exist', () => {
  it.each(RUN_TIME)('%s', (line) => {
    expect(decision(line, 'deny git push')).toBe('ask');
  });
});

describe('option clusters and long options in a deny rule', () => {
  it.each(CLUSTER_DENIED)('deny rm -rf holds against %s', (line) => {
    expect(decision(line, 'deny rm -rf')).toBe('deny');
  });
  it.each(CLUSTER_PASSED)('deny rm -rf lets %s through', (line) => {
    expect(decision(line, 'deny rm -rf')).toBeNull();
  });
});

describe('strictest wins', () => {
  it('the first rule of the winning decision is named', () => {
    expect(check('git push', 'deny git', 'deny git push').rule?.source).toBe('test[0]');
  });
});

describe('simple commands of a line', () => {
  it('are listed, wrapped scripts included', () => {
    const v = check("a && b | c; sudo sh -c 'd; e'");
    expect(v.commands.map((c) => c.text)).toEqual(['a', 'b', 'c', "sudo sh -c 'd; e'", 'd', 'e']);
  });
});

describe.each(Object.entries(DECISIONS))('%s', (_title, cases) => {
  it.each(cases)('%s with %j: %s', (line, rules, expected) => {
    expect(decision(line, ...rules)).toBe(expected);
  });
});
