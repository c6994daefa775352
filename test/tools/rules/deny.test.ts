// Deny fails closed: with `deny rm` and `deny git push` in force, every line of the deny corpus is
// denied or asks (never "no rule"), and the reason names a rule; what aish can see through (read-only
// programs, programs that start nothing, wrappers whose command it follows) is still decided as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatRule, parseRuleLine } from '../../../src/config/rule-line';
import { allowlistVerdictSync } from '../../../src/tools/safety/allowlist';
import { loadShellParser, type ShellParser } from '../../../src/tools/safety/shell-parser';
import { checkLine, type SourcedRule } from '../../../src/tools/rules/check';
import { DENY_CORPUS, DENY_RULES, fill } from './deny-corpus';

let parser: ShellParser;
beforeAll(async () => {
  parser = await loadShellParser();
});

const rules = (lines: string[]): SourcedRule[] =>
  lines.map((l, i) => {
    const r = parseRuleLine(l);
    if ('error' in r) throw new Error(`${l}: ${r.error}`);
    return { ...r, text: formatRule(r), source: `test[${i}]` };
  });
const check = (line: string, lines = DENY_RULES) => checkLine(parser, line, rules(lines), (t) => allowlistVerdictSync(t).safe);

describe('every line of the deny corpus is denied or asks, naming a rule', () => {
  it('has at least 40 cases', () => expect(DENY_CORPUS.length).toBeGreaterThanOrEqual(40));
  it.each(DENY_CORPUS)('%s', (_what, template) => {
    const v = check(fill(template, 'victim /elsewhere/victim'));
    expect(v.decision === 'deny' || v.decision === 'ask', `${v.decision}: ${v.reason}`).toBe(true);
    expect(v.reason).toMatch(/"deny (rm|git push)"/);
    expect(v.rule?.decision).toBe('deny');
  });
});

describe('named as git subcommands', () => {
  it.each(['/usr/lib/git-core/git-push origin', 'git-push', '/usr/libexec/git-core/git-push -f', 'sudo git-push'])('%s', (line) => {
    expect(check(line).decision).toBe('deny');
  });
});

describe('what deny rules can see through still decides as before', () => {
  it.each([
    'ls -la',
    'git status',
    'git log --oneline -5',
    'git commit -m wip',
    'cat README.md | grep x',
    'cp a b && mv b c',
    'tar czf x.tgz src',
    "awk '{print $1}' data.csv",
    "sed -n '1p' x",
    'echo hi > out.txt',
    'mkdir -p build && touch build/x',
    "sh -c 'ls; echo ok'",
    'g(){ ls; }; g',
    'timeout 5 cat x',
  ])('%s: no rule', (line) => {
    expect(check(line).decision).toBeNull();
  });
});

describe('fail closed, and how to open it', () => {
  it('an unknown program, a runner, an interpreter, a file named by path: asks with a deny rule, no rule without one', () => {
    for (const line of ['npm test', 'make', 'pytest -q', './build.sh', 'python3 x.py', 'gitk']) {
      expect(check(line).decision, line).toBe('ask');
      expect(check(line, ['ask docker']).decision, line).toBeNull();
      expect(check(line, ['allow ls']).decision, line).toBeNull();
    }
  });
  it('an allow rule for exactly that command vouches for what it runs; wrappers that change the user do not carry it', () => {
    expect(check('npm test', ['deny git push', 'allow npm test']).decision).toBe('allow');
    expect(check('timeout 60 npm test', ['deny git push', 'allow npm test']).decision).toBe('allow');
    expect(check('npm test && make', ['deny git push', 'allow npm test']).decision).toBe('ask');
    expect(check('sudo npm test', ['deny git push', 'allow npm test']).decision).toBe('ask');
  });
  it('a function is known only in the shell that defines it', () => {
    expect(check('make(){ :; }; make').decision).toBeNull();
    expect(check("make(){ :; }; bash -c 'make'").decision).toBe('ask');
    expect(check("sh -c 'make(){ :; }'; sh -c make").decision).toBe('ask');
  });
  it('options of programs that otherwise start nothing', () => {
    for (const line of [
      "awk -F , '{ system($0) }' x",
      'awk -v x=1 \'{ print | "sh" }\' x',
      'split --filter=sh x',
      'install -s --strip-program=./evil a b',
      'sort --compress-program=sh x',
      'patch -p1 < fix.diff',
    ])
      expect(check(line).decision, line).toBe('ask');
  });
  it('a variable that changes what runs asks, whatever the program', () => {
    for (const line of ['PATH=/tmp/x ls', 'LD_PRELOAD=/tmp/x.so cat f', 'export PROMPT_COMMAND=x; ls', 'env PAGER=x git log'])
      expect(check(line).decision, line).toBe('ask');
  });
  it('git: options and subcommands that start programs ask', () => {
    for (const line of [
      'git -c core.pager=x log',
      'git --exec-path=/tmp/x status',
      'git rebase -x "make" main',
      'git submodule foreach ls',
      'git commit',
      'git commit --amend',
      'git p',
      "git clone -u 'rm -rf x' /srv/repo",
      "git fetch --upload-pack='rm -rf x' /srv/repo",
      "git archive --remote=/srv/repo --exec='rm -rf x' HEAD",
      "git grep -O'rm -rf x' foo",
      "git ls-remote --upload-pack='rm -rf x' /srv/repo",
    ])
      expect(check(line).decision, line).toBe('ask');
  });
});
