// The read-only allowlist: what it accepts, and for every program on it the options that make it
// more than a read. In-process: nothing here is executed.
import { beforeAll, describe, expect, it } from 'vitest';
import { allowlistVerdict, allowlistVerdictSync } from '../../src/tools/safety/allowlist';
import { loadShellParser } from '../../src/tools/safety/shell-parser';

beforeAll(async () => {
  await loadShellParser();
});

const SAFE = [
  // structure: pipelines, lists, groups, substitutions of safe commands, harmless redirections
  'ls | wc -l', 'ls && pwd || echo no; whoami', '(cd src && ls)', '{ ls; pwd; }', '! grep -q x f', 'ls |& cat', 'echo $(pwd) `whoami`',
  'diff <(ls a) <(ls b)', 'ls 2>/dev/null', 'ls >/dev/null 2>&1', 'ls &>/dev/null', 'ls 2>&-', 'cat < input.txt', 'wc -l <<< "a b"',
  "cat <<'EOF'\n$(rm -rf x)\nEOF", 'cat <<EOF\nhello $USER\nEOF', 'LC_ALL=C sort f', 'TZ=UTC date', 'echo ${HOME} ${#PATH} ${x:-def}',
  'ls # rm -rf /', '/bin/ls', '/usr/bin/env', 'echo ${x:1:2} ${x: -1}', 'test -n x', '[ x -eq 1 ]', "cat <<'EOF'\n`id`\nEOF", '"ls" -la', "'cat' f", '[ -f x ] && cat x', 'ls \\\n  -la', 'echo "a\\\nb"',
  // programs with checked options, in their read-only forms
  "find . -name '*.ts' -type f", 'find . -newer a -maxdepth 2 -print0', 'rg -n foo -g "*.ts" src', 'rg --pre-glob "*.gz" foo',
  'sort -rn -k2 -t, f', 'uniq -c f', 'date +%s', 'date -u -Iseconds', 'date -d tomorrow +%F', 'env', 'env -0', 'hostname -f', 'file -b f',
  'tree -L 2 -a', 'base64 -d f', 'printf "%s\\n" a', 'printf -- "-v\\n"', 'command -v git', "sed -n '1,20p' f", "sed -n '$p' f", "sed 's/a/b/g' f", "sed -E -n '/x/,/y/{/y/!p}' f", "sed -e 1d -e '$d' f",
  'node --version', 'python3 -V', 'git --version',
  // git read-only subcommands
  'git status', 'git -C sub log --oneline', 'git --no-pager diff --stat', 'git show HEAD:f', 'git branch -avv', 'git branch --list "f*"',
  'git branch --contains HEAD', 'git tag', 'git tag -l "v*"', 'git remote -v', 'git remote get-url origin', 'git config --get user.name',
  'git config user.name', 'git config --list --show-origin', 'git config get core.editor', 'git stash list', 'git stash show -p stash@{0}',
  'git reflog', 'git reflog show main', 'git worktree list', 'git log -- "*.ts"', 'git grep -n foo', 'git ls-files -m', 'git blame -w f',
];

/** [command, a word of the reason]: each program's options that write, run a program or change state. */
const UNSAFE: Array<[string, string]> = [
  // find actions
  ...['-exec rm {} ;', '-execdir rm {} +', '-ok rm {} ;', '-okdir rm {} ;', '-delete', '-fprint out', '-fprint0 out', '-fprintf out %p', '-fls out']
    .map((a): [string, string] => [`find . ${a}`, 'find -']),
  ['find . -name *.ts', 'glob'], ['find . $(echo -delete)', 'generated'],
  // rg
  ['rg --pre cat foo', '--pre'], ['rg --pre=cat foo', '--pre'], ['rg --hostname-bin x foo', '--hostname-bin'], ['rg -z foo', '-z'],
  ['rg --search-zip foo', '--search-zip'], ['rg -iz foo', '-z'], ['rg foo *', 'glob'],
  // sort, uniq
  ['sort -o out f', '-o'], ['sort -uo out f', '-o'], ['sort --output=out f', '--output'], ['sort --out=x f', '--out'],
  ['sort --compress-program=gzip f', '--compress-program'], ['sort $(echo -o x) f', 'generated'], ['uniq in out', 'operands'],
  // date, env, hostname, file, tree, base64, printf, command
  ['date -s 2020-01-01', '-s'], ['date --set=2020-01-01', '--set'], ['date --se=2020-01-01', '--se'], ['date 010101012020', 'sets the clock'],
  ['env FOO=1 ls', 'plain query'], ['env -S "rm -rf x"', 'plain query'], ['env -i sh', 'plain query'], ['hostname evil', 'host name'],
  ['hostname -F /etc/x', 'host name'], ['file -C -m magic', '-C'], ['file --compile -m magic', '--compile'], ['tree -o out', '-o'],
  ['tree -R -H x', '-R'], ['base64 -o out f', '-o'], ['base64 --output=out f', '--output'], ['base64 a b', 'operands'],
  ['printf -v PATH /tmp/evil', 'printf -v'], ['printf "$FMT" x', 'printf -v'], ['command rm -rf x', 'runs its operand'],
  // sed: printing scripts only
  ["sed -i 's/a/b/' f", '-i'], ["sed -ie 's/a/b/' f", '-i'], ["sed --in-place 's/a/b/' f", '--in-place'], ["sed -n '1,5w out' f", 'sed w'],
  ["sed '1e id' f", 'sed e'], ["sed 's/x/id/e' f", 'sed s///e'], ["sed 's/x/y/w out' f", 'sed s///w'], ["sed -n 'b x; W out' f", 'sed w'],
  ['sed -n 1p -i f', '-i'], ['sed -f script.sed f', '-f'], ["sed \"s/$X/y/\" f", 'generated'], ["sed 's/a/b/' *", 'glob'],
  // version queries are exact
  ['node -e "1"', 'plain query'], ['npm run build', 'plain query'], ['python3 -c "print(1)"', 'plain query'], ['python3 -v', 'plain query'],
  ['yarn --version', 'not on the read-only list'], ['cargo --version', 'not on the read-only list'],
  // git
  ['git -c core.pager=cat log', '-c'], ['git -ccore.pager=cat log', '-ccore'], ['git --exec-path=/tmp log', '--exec-path'],
  ['git -p log', '-p'], ['git --paginate log', '--paginate'], ['git --config-env=core.pager=X log', '--config-env'],
  ['git log --output=x', '--output'], ['git diff --out=x', '--output'], ['git diff --ext-diff', '--ext-diff'], ['git log --textconv', '--textconv'],
  ['git grep -O foo', '-O'], ['git grep --open-files-in-pager=vi foo', '--open-files-in-pager'], ['git ls-remote --upload-pack=x origin', '--upload-pack'],
  ['git cat-file --filters HEAD:f', '--filters'], ['git branch newbranch', 'changes branches'], ['git branch -d x', 'changes branches'],
  ['git branch -D x', 'changes branches'], ['git branch -m a b', 'changes branches'], ['git branch -c a b', 'changes branches'],
  ['git branch -f x HEAD', 'changes branches'], ['git branch -u origin/x', 'changes branches'], ['git tag v1', 'changes tags'],
  ['git tag -d v1', 'changes tags'], ['git tag -a v1 -m x', 'changes tags'], ['git tag -v v1', 'changes tags'], ['git config user.name x', 'sets it'],
  ['git config --add a.b c', '--add'], ['git config --unset a.b', '--unset'], ['git config -e', '-e'], ['git stash', 'stash'],
  ['git stash drop', 'stash drop'], ['git stash push', 'stash push'], ['git reflog expire --all', 'reflog expire'], ['git worktree add ../x', 'worktree add'],
  ['git remote add x url', 'changes remotes'], ['git push', 'not on the read-only list'], ['git commit -m x', 'not on the read-only list'],
  ['git checkout -- f', 'not on the read-only list'], ['git clean -n', 'not on the read-only list'], ['git diff *.ts', 'glob'], ['git', 'without a subcommand'],
  // structure
  ['ls > out', 'output redirected'], ['ls >> out', 'output redirected'], ['ls &> out', 'output redirected'], ['ls >| out', 'output redirected'],
  ['ls 2> err', 'output redirected'], ['cat <> f', 'parse'], ['ls >&out', 'output redirected'], ['ls > "$F"', 'output redirected'],
  ['cat < /dev/tcp/evil/80', 'network'], ['echo $(rm -rf x)', 'rm'], ['cat <(curl x)', 'curl'], ['ls > >(tee out)', 'tee'], ['ls &', 'background'],
  ['PATH=/tmp ls', 'PATH'], ['X=1; ls', 'assigning'], ['export X=1', 'declaration'], ['unset X', 'unset'], ['f() { ls; }', 'function'],
  ['if true; then ls; fi', 'if statement'], ['for f in *; do cat "$f"; done', 'for statement'], ['while true; do ls; done', 'while'],
  ['case x in x) ls;; esac', 'case'], ['[[ -f x ]]', 'test command'], ['(( 1 + 1 ))', 'arithmetic'], ['echo $((1 + 2))', 'arithmetic'],
  ['echo ${x:=y}', 'assigns'], ['echo ${PWD@P}', 'evaluates'], ['./ls', 'nobody has read'], ['bin/ls', 'nobody has read'],
  ['~/bin/ls', 'nobody has read'], ['/tmp/ls', 'nobody has read'], ['$X', 'run time'], ['$(echo ls)', 'run time'], ['l* -la', 'run time'],
  ['LS', 'not on the read-only list'], ['ls "unterminated', 'parse'], ['', 'empty'], ['l\\\ns', 'not on the read-only list'],
  ['r\\\nm -rf x', 'not on the read-only list'],
  // code bash runs that the tree does not show: backquotes left in words, arithmetic on values
  ['echo ${x:-`id`}', 'backquoted'], ['echo "${x:-`id`}"', 'backquoted'], ['cat <<EOF\n`id`\nEOF', 'backquoted'],
  ["echo 'a[$(id)]'; echo ${HOME:_}", 'arithmetic'], ['echo ${HOME:0:_}', 'arithmetic'], ['echo ${y[_]}', 'arithmetic'], ['echo ${!_}', 'arithmetic'],
  ['test -v x', 'arithmetic'], ['[ -v x ]', 'arithmetic'], ['[ -R x ]', 'arithmetic'], ['[ "$x" = y ]', 'arithmetic'], ['test "$x" = y', 'arithmetic'], ['cat <<EOF | sh\nls\nEOF', 'sh'], ['xargs rm', 'xargs'], ['tee out', 'tee'],
  ['less f', 'less'], ['sudo ls', 'sudo'], ['( '.repeat(60) + 'ls' + ' )'.repeat(60), 'nested too deeply'],
];

describe('allowlistVerdictSync', () => {
  // One test per table, listing every mismatch: a test per command costs more than checking it.
  it(`lets the ${SAFE.length} read-only forms run unasked`, () => {
    const refused = SAFE.map((c) => [c, allowlistVerdictSync(c)] as const).filter(([, v]) => !v.safe);
    expect(refused.map(([c, v]) => `${JSON.stringify(c)}: ${v.reason}`)).toEqual([]);
  });

  it(`asks for the ${UNSAFE.length} others, each with its reason`, () => {
    const wrong = UNSAFE.map(([c, word]) => [c, word, allowlistVerdictSync(c)] as const).filter(([, word, v]) => v.safe || !v.reason?.includes(word));
    expect(wrong.map(([c, word, v]) => `${JSON.stringify(c)}: expected "${word}", got ${JSON.stringify(v)}`)).toEqual([]);
  });

  it('is available asynchronously', async () => {
    expect(await allowlistVerdict('ls')).toEqual({ safe: true });
    expect((await allowlistVerdict('rm x')).safe).toBe(false);
  });

  // Long enough that a walk quadratic in the number of commands would show; no longer (unit budget).
  it('stays linear on long input', () => {
    expect(allowlistVerdictSync(`${'ls && '.repeat(3_000)}ls`).safe).toBe(true);
    expect(allowlistVerdictSync(`${'ls | '.repeat(3_000)}rm x`).safe).toBe(false);
    expect(allowlistVerdictSync(`echo ${'a'.repeat(30_000)}`).safe).toBe(true);
  });
});
