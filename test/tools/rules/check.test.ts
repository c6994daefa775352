// The rules' decision on command lines, on the real tree-sitter-bash parser: wrappers, compound
// lines, quoting, paths, continuations and hidden programs must not walk around a deny rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatRule, parseRuleLine } from '../../../src/config/rule-line';
import { allowlistVerdictSync } from '../../../src/tools/safety/allowlist';
import { loadShellParser, type ShellParser } from '../../../src/tools/safety/shell-parser';
import { checkLine, type SourcedRule } from '../../../src/tools/rules/check';

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

/** Every wrapper the rules look through, each around `git push origin main`. */
export const WRAPPED: string[] = [
  'sudo git push origin main',
  'sudo -u root -E git push origin main',
  'doas git push origin main',
  'doas -u root git push origin main',
  'env git push origin main',
  'env X=1 git push origin main',
  'env -i PATH=/usr/bin git push origin main',
  'env -u HOME -- git push origin main',
  'xargs git push',
  'xargs -n 1 -I{} git push {}',
  'xargs -0 -P4 git push',
  "sh -c 'git push origin main'",
  'bash -c "git push origin main"',
  "zsh -c 'git push'",
  "dash -c 'git push'",
  "bash -lc 'cd x && git push'",
  'timeout 5 git push',
  'timeout -s KILL -k 2 5 git push',
  'nice git push',
  'nice -n 19 git push',
  'nohup git push',
  'stdbuf -oL -eL git push',
  'stdbuf -o L git push',
  'command git push',
  'command -p git push',
  'exec git push',
  'exec -a name git push',
  'time git push',
  'time -p git push',
  // nested, and in compound positions
  "sudo env X=1 timeout 5 sh -c 'git push'",
  "doas nice -n 5 nohup bash -c 'exec command -p git push'",
  'echo hi && sudo git push',
  'true; git push',
  'false || git push',
  'ls | xargs git push',
  '(git push)',
  '{ git push; }',
  'echo $(git push)',
  'echo `git push`',
  'cat <(git push)',
  'diff <(ls) >(git push)',
  'if true; then git push; fi',
  'for i in 1; do git push; done',
  'f() { git push; }; f',
  // spelling: quoting, escapes, paths, continuations, case of the program
  '"git" push',
  "'git' 'push'",
  'g\\it pu\\sh',
  "$'git' push",
  '/usr/bin/git push',
  '/usr/local/bin/git push',
  './git push',
  'git pu\\\nsh',
  'GIT push',
  // options before the subcommand
  'git -C /tmp push',
  'git -c core.x=y push',
  'git --no-pager push',
  'git --git-dir=/x/.git push',
  // stdin of a shell, eval
  "echo 'git push' | sh",
  'bash <<EOF\ngit push\nEOF',
  "eval 'git push'",
  'find . -exec git push \\;',
  "watch 'git push'",
  "env -S 'git push'",
  "bash <<< 'git push'",
  "$'\\x67it' push",
  'command -- git push',
  'sudo --user=root git push',
  'nice -5 git push',
  'coproc git push',
  'ssh host git push',
  'git push &',
  '! git push',
  'xargs sh -c \'git push "$@"\' _',
];

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
  it.each(['git status', 'git log --grep push', 'echo git push', "grep 'git push' notes.txt", '# git push'])('%s', (line) => {
    expect(decision(line, 'deny git push')).toBeNull();
  });
});

describe('a command known only at run time asks when deny or ask rules exist', () => {
  it.each([
    'git -c alias.p=push p',
    'git -calias.p=push p',
    'git --config-env=alias.p=X p',
    '{git,x} push',
    '$G push',
    'git $SUB',
    'git $(echo push)',
    'git pu*',
    'sh -c "$CMD"',
    'eval "$X"',
    'x=git; $x push',
    'curl -s x | sh',
    'sh < script',
    // fail closed: a program that may start others (an alias in git's config, one aish does not know)
    'git pushx',
    'gitk push',
  ])('%s', (line) => {
    expect(decision(line, 'deny git push')).toBe('ask');
  });
  it('runs as usual (no rule decides) when there are only allow rules', () => {
    expect(decision('$G push', 'allow git status')).toBeNull();
  });
});

describe('option clusters and long options in a deny rule', () => {
  it.each(['rm -rf x', 'rm -fr x', 'rm -r -f x', 'sudo rm -f -r x', 'rm -rfv x'])('deny rm -rf holds against %s', (line) => {
    expect(decision(line, 'deny rm -rf')).toBe('deny');
  });
  it.each(['rm -r x', 'rm x', 'rm -- -rf'])('deny rm -rf lets %s through', (line) => {
    expect(decision(line, 'deny rm -rf')).toBeNull();
  });
  it('a long option, also with =value', () => {
    expect(decision('git push --force origin', 'deny git push --force')).toBe('deny');
    expect(decision('git push --force=yes origin', 'deny git push --force')).toBe('deny');
    expect(decision('git push origin --force', 'deny git push --force')).toBe('deny');
    expect(decision('git push origin', 'deny git push --force')).toBeNull();
  });
});

describe('strictest wins', () => {
  it('deny beats allow whatever the order', () => {
    expect(decision('git push', 'allow git push', 'deny git push')).toBe('deny');
    expect(decision('git push', 'deny git', 'allow git push')).toBe('deny');
  });
  it('ask beats allow; deny beats ask', () => {
    expect(decision('docker ps', 'allow docker ps', 'ask docker')).toBe('ask');
    expect(decision('docker rm x', 'ask docker', 'deny docker rm')).toBe('deny');
  });
  it('an ask rule holds through wrappers too', () => {
    expect(decision("sudo sh -c 'docker run x'", 'ask docker')).toBe('ask');
  });
  it('a rule for the wrapper itself matches the wrapper command', () => {
    expect(decision('sudo apt update', 'deny sudo')).toBe('deny');
    expect(decision("nice -n 5 timeout 5 sh -c 'ls'", 'ask timeout')).toBe('ask');
    expect(decision('echo x | xargs -n1 echo', 'deny xargs')).toBe('deny');
  });
  it('the first rule of the winning decision is named', () => {
    expect(check('git push', 'deny git', 'deny git push').rule?.source).toBe('test[0]');
  });
});

describe('allow rules', () => {
  it('allow a command and longer ones, word by word', () => {
    expect(decision('npm run test', 'allow npm run test')).toBe('allow');
    expect(decision('npm run test -- --watch', 'allow npm run test')).toBe('allow');
    expect(decision('npm run testx', 'allow npm run test')).toBeNull();
    expect(decision('npm run', 'allow npm run test')).toBeNull();
    expect(decision('npm -g run test', 'allow npm run test')).toBeNull();
  });
  it('a line runs by rule only if every simple command is allowed or read-only', () => {
    expect(decision('npm run test && ls', 'allow npm run test')).toBe('allow');
    expect(decision('npm run test && rm -rf x', 'allow npm run test')).toBeNull();
    expect(decision('npm run test | tee out.txt', 'allow npm run test')).toBeNull();
    expect(decision('npm run test $(rm -rf x)', 'allow npm run test')).toBeNull();
  });
  it('not through wrappers that change the user or the environment', () => {
    expect(decision('sudo npm run test', 'allow npm run test')).toBeNull();
    expect(decision('env NODE_OPTIONS=--require=x npm run test', 'allow npm run test')).toBeNull();
    expect(decision('timeout 60 npm run test', 'allow npm run test')).toBe('allow');
    expect(decision("bash -c 'npm run test'", 'allow npm run test')).toBe('allow');
    expect(decision('sudo apt update', 'allow sudo apt update')).toBe('allow');
  });
  it('not with output to a file or an assignment', () => {
    expect(decision('npm run test > ~/.bashrc', 'allow npm run test')).toBeNull();
    expect(decision('PATH=/tmp/evil npm run test', 'allow npm run test')).toBeNull();
    expect(decision('npm run test > /dev/null 2>&1', 'allow npm run test')).toBe('allow');
  });
  it('a path is the system program, or exactly the path the rule names', () => {
    expect(decision('/usr/bin/make test', 'allow make test')).toBe('allow');
    expect(decision('./make test', 'allow make test')).toBeNull();
    expect(decision('/tmp/x/make test', 'allow make test')).toBeNull();
    expect(decision('./scripts/ci.sh fast', 'allow ./scripts/ci.sh')).toBe('allow');
    expect(decision('scripts/ci.sh', 'allow ./scripts/ci.sh')).toBeNull();
  });
  it('exact rules match the whole command only', () => {
    expect(decision('git status --short', 'allow exact git status --short')).toBe('allow');
    expect(decision("git status '--short'", 'allow exact git status --short')).toBe('allow');
    expect(decision('git status --short x', 'allow exact git status --short')).toBeNull();
  });
  it('a quoted word in a rule is one word', () => {
    expect(decision('git commit -m "wip fix"', "allow git commit -m 'wip fix'")).toBe('allow');
    expect(decision('git commit -m wip fix', "allow git commit -m 'wip fix'")).toBeNull();
  });
});

describe('simple commands of a line', () => {
  it('are listed, wrapped scripts included', () => {
    const v = check("a && b | c; sudo sh -c 'd; e'");
    expect(v.commands.map((c) => c.text)).toEqual(['a', 'b', 'c', "sudo sh -c 'd; e'", 'd', 'e']);
  });
});
