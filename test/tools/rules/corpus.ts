/**
 * The rules corpus as data: every command line the rules' tests decide, with the rules in force.
 * check.test.ts and deny.test.ts assert each one's decision; rules-agree.test.ts runs every one through
 * both `aish rules check` and the gate and asserts they agree.
 */
import type { RuleDecision } from '../../../src/config/rule-line';
import { DENY_CORPUS, DENY_RULES, fill } from './deny-corpus';

export type RuleCase = [line: string, rules: string[], decision: RuleDecision | null];

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

/** Lines `deny git push` does not match. */
export const NOT_DENIED = ['git status', 'git log --grep push', 'echo git push', "grep 'git push' notes.txt", '# git push'];

/** Lines that ask with `deny git push`: part of them is known only at run time, or may start a program unseen. */
export const RUN_TIME = [
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
];

export const CLUSTER_DENIED = ['rm -rf x', 'rm -fr x', 'rm -r -f x', 'sudo rm -f -r x', 'rm -rfv x'];
export const CLUSTER_PASSED = ['rm -r x', 'rm x', 'rm -- -rf'];

/** Single decisions, by what each shows. */
export const DECISIONS: Record<string, RuleCase[]> = {
  'runs as usual (no rule decides) when there are only allow rules': [['$G push', ['allow git status'], null]],
  'a long option, also with =value': [
    ['git push --force origin', ['deny git push --force'], 'deny'],
    ['git push --force=yes origin', ['deny git push --force'], 'deny'],
    ['git push origin --force', ['deny git push --force'], 'deny'],
    ['git push origin', ['deny git push --force'], null],
  ],
  'deny beats allow whatever the order': [
    ['git push', ['allow git push', 'deny git push'], 'deny'],
    ['git push', ['deny git', 'allow git push'], 'deny'],
  ],
  'ask beats allow; deny beats ask': [
    ['docker ps', ['allow docker ps', 'ask docker'], 'ask'],
    ['docker rm x', ['ask docker', 'deny docker rm'], 'deny'],
  ],
  'an ask rule holds through wrappers too': [["sudo sh -c 'docker run x'", ['ask docker'], 'ask']],
  'a rule for the wrapper itself matches the wrapper command': [
    ['sudo apt update', ['deny sudo'], 'deny'],
    ["nice -n 5 timeout 5 sh -c 'ls'", ['ask timeout'], 'ask'],
    ['echo x | xargs -n1 echo', ['deny xargs'], 'deny'],
  ],
  'allow a command and longer ones, word by word': [
    ['npm run test', ['allow npm run test'], 'allow'],
    ['npm run test -- --watch', ['allow npm run test'], 'allow'],
    ['npm run testx', ['allow npm run test'], null],
    ['npm run', ['allow npm run test'], null],
    ['npm -g run test', ['allow npm run test'], null],
  ],
  'a line runs by rule only if every simple command is allowed or read-only': [
    ['npm run test && ls', ['allow npm run test'], 'allow'],
    ['npm run test && rm -rf x', ['allow npm run test'], null],
    ['npm run test | tee out.txt', ['allow npm run test'], null],
    ['npm run test $(rm -rf x)', ['allow npm run test'], null],
  ],
  'not through wrappers that change the user or the environment': [
    ['sudo npm run test', ['allow npm run test'], null],
    ['env NODE_OPTIONS=--require=x npm run test', ['allow npm run test'], null],
    ['timeout 60 npm run test', ['allow npm run test'], 'allow'],
    ["bash -c 'npm run test'", ['allow npm run test'], 'allow'],
    ['sudo apt update', ['allow sudo apt update'], 'allow'],
  ],
  'not with output to a file or an assignment': [
    ['npm run test > ~/.bashrc', ['allow npm run test'], null],
    ['PATH=/tmp/evil npm run test', ['allow npm run test'], null],
    ['npm run test > /dev/null 2>&1', ['allow npm run test'], 'allow'],
  ],
  'a path is the system program, or exactly the path the rule names': [
    ['/usr/bin/make test', ['allow make test'], 'allow'],
    ['./make test', ['allow make test'], null],
    ['/tmp/x/make test', ['allow make test'], null],
    ['./scripts/ci.sh fast', ['allow ./scripts/ci.sh'], 'allow'],
    ['scripts/ci.sh', ['allow ./scripts/ci.sh'], null],
  ],
  'exact rules match the whole command only': [
    ['git status --short', ['allow exact git status --short'], 'allow'],
    ["git status '--short'", ['allow exact git status --short'], 'allow'],
    ['git status --short x', ['allow exact git status --short'], null],
  ],
  'a quoted word in a rule is one word': [
    ['git commit -m "wip fix"', ["allow git commit -m 'wip fix'"], 'allow'],
    ['git commit -m wip fix', ["allow git commit -m 'wip fix'"], null],
  ],
};

/** `touch` of a marker through each wrapper the rules look through (M is replaced by the marker's name). */
export const WRAPPED_TOUCH = [
  'touch M',
  'sudo touch M',
  'sudo -n -u root touch M',
  'doas touch M',
  'env touch M',
  'env X=1 touch M',
  'env -i PATH=/usr/bin:/bin touch M',
  'echo M | xargs touch',
  'echo M | xargs -n 1 -I{} touch {}',
  "sh -c 'touch M'",
  'bash -c "touch M"',
  "zsh -c 'touch M'",
  "dash -c 'touch M'",
  'timeout 5 touch M',
  'timeout -s KILL 5 touch M',
  'nice touch M',
  'nice -n 5 touch M',
  'nohup touch M',
  'stdbuf -oL touch M',
  'command touch M',
  'command -p touch M',
  'exec touch M',
  'time touch M',
  "sudo env X=1 timeout 5 sh -c 'touch M'",
  "nice nohup bash -c 'command -p touch M'",
  '/usr/bin/touch M',
  '"touch" M',
  'tou\\ch M',
  'true && touch M',
  'echo $(touch M)',
  "echo 'touch M' | sh",
  "eval 'touch M'",
  'T=touch; $T M',
];

/** What test/e2e/rules.test.ts asks `aish rules check` about, with these rules. */
const CLI_RULES = ['deny git push', 'ask docker', 'allow npm run test'];
const CLI_CHECKS = [
  "ls && sudo env X=1 sh -c 'git push origin'",
  'timeout 9 docker ps',
  'npm run test | grep ok',
  'rm -rf build',
  'git -C /x push --force',
];

/** Every line of the corpus with the rules it is checked against. */
export function ruleCorpus(): Array<[line: string, rules: string[]]> {
  return [
    ...WRAPPED.map((l): [string, string[]] => [l, ['allow git', 'deny git push']]),
    ...[...NOT_DENIED, ...RUN_TIME].map((l): [string, string[]] => [l, ['deny git push']]),
    ...[...CLUSTER_DENIED, ...CLUSTER_PASSED].map((l): [string, string[]] => [l, ['deny rm -rf']]),
    ...Object.values(DECISIONS).flatMap((cases) => cases.map(([l, rules]): [string, string[]] => [l, rules])),
    ...WRAPPED_TOUCH.map((l): [string, string[]] => [l.replace(/M/g, 'marker'), ['deny touch']]),
    ...CLI_CHECKS.map((l): [string, string[]] => [l, CLI_RULES]),
    ...DENY_CORPUS.map(([, t]): [string, string[]] => [fill(t, 'victim /elsewhere/victim'), DENY_RULES]),
  ];
}
