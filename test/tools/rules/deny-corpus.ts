/**
 * Lines that walk around `deny rm` / `deny git push` unless deny fails closed: the third attack's
 * findings, GTFOBins' "shell" and "command" entries (programs that start a shell or a command:
 * debuggers, editors, pagers, interpreters, archivers with program options, schedulers, namespace
 * and priority tools), and the classes peers' permission rules were walked around by (a variable
 * that makes a shell read a file, aliases and functions, a program reached by another name or path).
 * `VICTIM` is replaced by the paths to delete (`rm -rf` of them is what `deny rm` denies), `PUSH` by
 * `git push origin main`. Every line must be denied or ask, never run, with both rules in force.
 */
export const DENY_RULES = ['deny rm', 'deny git push'];

const RM = 'rm -rf VICTIM';
export const DENY_CORPUS: Array<[string, string]> = [
  // the third attack
  ['source of /dev/stdin fed a here-string', `source /dev/stdin <<< '${RM}'`],
  ['. of /dev/stdin fed a here-string', `. /dev/stdin <<< '${RM}'`],
  ['BASH_ENV=/dev/stdin before a shell', `BASH_ENV=/dev/stdin bash -c true <<< '${RM}'`],
  ['script -qc', `script -qc '${RM}' /dev/null`],
  ['a git subcommand binary by path', '/usr/lib/git-core/git-push origin main'],
  ['git-push by its own name', 'git-push origin main'],
  ['parallel with the subcommand as an argument', 'parallel git ::: push'],
  ['gdb running git push', 'gdb -batch -ex run --args git push origin main'],
  ['an alias defined on the line', 'alias g=git; g push origin main'],
  ['a function defined on the line', 'f(){ git push origin main; }; f'],
  // shells fed a script from stdin, a file descriptor or a variable
  ['export BASH_ENV, then a shell', `export BASH_ENV=/dev/stdin; bash -c true <<< '${RM}'`],
  ['env BASH_ENV=', `env BASH_ENV=/dev/stdin bash -c true <<< '${RM}'`],
  ['ENV= before an interactive sh', `ENV=/dev/stdin sh -i -c true <<< '${RM}'`],
  ['bash of /dev/stdin', `bash /dev/stdin <<< '${RM}'`],
  ['sh of /proc/self/fd/0', `sh /proc/self/fd/0 <<< '${RM}'`],
  ['bash of a file descriptor', `exec 3<<< '${RM}'; bash /dev/fd/3`],
  ['a shell reading a file', `echo '${RM}' > s.sh; sh < s.sh`],
  ['a shell running a file', `echo '${RM}' > s.sh; bash s.sh`],
  ['a here-string into bash', `bash <<< '${RM}'`],
  ['a here-doc into dash', `dash <<EOF\n${RM}\nEOF`],
  // GTFOBins "shell"/"command": program-runners
  ['awk system()', `awk 'BEGIN { system("${RM}") }'`],
  ['find -exec', `find . -maxdepth 0 -exec ${RM} \\;`],
  ['vim -c', `vim -es -c ':!${RM}' -c ':q!'`],
  ['ed !', `echo '!${RM}' | ed`],
  ['man -P', `man -P '${RM}' ls`],
  ['less !', `echo '!${RM}' | less -`],
  ['nice', `nice ${RM}`],
  ['ionice', `ionice ${RM}`],
  ['stdbuf', `stdbuf -i0 ${RM}`],
  ['setsid', `setsid ${RM}`],
  ['flock -c', `flock /tmp/l -c '${RM}'`],
  ['chroot /', `chroot / ${RM}`],
  ['busybox sh', `busybox sh -c '${RM}'`],
  ['env -S', `env -S '${RM}'`],
  ['xargs', 'echo VICTIM | xargs rm -rf'],
  ['taskset', `taskset 1 ${RM}`],
  ['unshare', `unshare ${RM}`],
  ['strace', `strace -o /dev/null ${RM}`],
  ['ltrace', `ltrace -o /dev/null ${RM}`],
  ['rlwrap', `rlwrap ${RM}`],
  ['expect spawn', `expect -c 'spawn ${RM}; expect eof'`],
  ['socat exec:', `socat - 'exec:${RM}'`],
  ['tclsh from stdin', `echo 'exec ${RM}' | tclsh`],
  ['perl -e', `perl -e 'system("${RM}")'`],
  ['python -c', `python3 -c 'import os; os.system("${RM}")'`],
  ['node -e', `node -e 'require("child_process").execSync("${RM}")'`],
  ['php -r', `php -r 'system("${RM}");'`],
  ['ruby -e', `ruby -e 'system("${RM}")'`],
  ['lua -e', `lua -e 'os.execute("${RM}")'`],
  ['make with a Makefile from stdin', `printf 'x:\\n\\t${RM}\\n' | make -f -`],
  ['git -c alias with !', `git -c alias.x='!${RM}' x`],
  ['git -c core.sshCommand', `git -c core.sshCommand='${RM}; false' fetch ssh://h/x`],
  ['tar --checkpoint-action=exec', `tar cf /dev/null /dev/null --checkpoint=1 --checkpoint-action=exec='${RM}'`],
  ['zip -TT', `zip /tmp/z.zip /etc/hostname -T -TT '${RM} #'`],
  ['sed e', `sed -n '1e ${RM}' /etc/hostname`],
  ['sqlite3 .shell', `sqlite3 /dev/null '.shell ${RM}'`],
  ['gdb !', `gdb -nx -batch -ex '!${RM}'`],
  ['start-stop-daemon', 'start-stop-daemon -S -x /bin/rm -- -rf VICTIM'],
  ['timeout sh -c', `timeout 5 sh -c '${RM}'`],
  // a shell started without a command reads its commands from stdin
  ['sudo -s fed a here-string', `sudo -s <<< '${RM}'`],
  ['su fed a here-string', `su <<< '${RM}'`],
  ['chroot / without a command', `chroot / <<< '${RM}'`],
  ['awk running each line of stdin', `awk '{ system($0) }' <<< '${RM}'`],
  ['xargs sh -c of stdin', `xargs -I{} sh -c '{}' <<< '${RM}'`],
  // the line sets up what runs next
  ['git config alias, then the alias', `git config alias.x '!${RM}' && git x`],
  ['hash -p', 'hash -p /bin/rm ls; ls -rf VICTIM'],
  ['trap on exit', `trap '${RM}' EXIT`],
  ['positional parameters as the command', 'set -- rm -rf VICTIM; "$@"'],
  // another name or path for the program
  ['an alias for rm', 'alias r=rm; r -rf VICTIM'],
  ['a copy of rm', 'cp /bin/rm ./x; ./x -rf VICTIM'],
  ['a link to rm', 'ln -sf /bin/rm del; ./del -rf VICTIM'],
  ['PATH pointing at the project', `printf '#!/bin/sh\\n${RM}\\n' > ls; chmod +x ls; PATH=.:$PATH ls`],
  ['a program aish does not know', `cpulimit -l 50 -f -- ${RM}`],
  // the fifth attack: bash evaluating a value as code (a subscript `a[$(…)]` in arithmetic or in a
  // variable's name, `${x@P}`), the value put together, decoded or read so that no `$(` is written
  ['arithmetic of a value put together from pieces', `d='$'; x="a[\${d}(${RM})]"; echo $((x))`],
  ["arithmetic of a $'…' string", `x=$'a[\\x24(${RM})]'; (( x ))`],
  ['arithmetic of printf -v output', `printf -v x 'a[\\x24(${RM})]'; (( x ))`],
  ['arithmetic of a line read from a file', `printf 'a[\\x24(${RM})]' > f; read -r x < f; (( x ))`],
  ['arithmetic of command output', `echo $(( $(printf 'a[\\x24(${RM})]') ))`],
  ['a value expanded as a prompt', `x='$(${RM})'; : "\${x@P}"`],
  ['a prompt of escapes decoded by @E', `d='\\x24'; x="\${d@E}(${RM})"; : "\${x@P}"`],
  ['a name reference to a subscript', `x='a[$(${RM})]'; declare -n r=$x; : "$r"`],
  ['declare of a name held in a variable', `x='a[$(${RM})]'; declare "$x=1"`],
  ['a name reference to a subscript running git push', `x='a[$(PUSH)]'; declare -n r=$x; : "$r"`],
  // the sixth attack: a variable that makes a program run code, by the shape of its name (prompts
  // an interactive shell expands, search paths, start-up files, config homes)
  ['a prompt an interactive shell expands', `PS1='$(${RM})' bash -i <<< ''`],
  ['PS0, expanded before each command', `PS0='$(${RM})' bash -i <<< 'true'`],
  ['env PS1= before an interactive shell', `env PS1='$(${RM})' bash -i <<< ''`],
  ['export PS1, then an interactive shell', `export PS1='$(${RM})'; bash -i <<< ''`],
  ['a prompt running git push', `PS1='$(PUSH)' bash -i <<< ''`],
];

/** A corpus line with its placeholders filled in. */
export const fill = (template: string, victim: string): string =>
  template.replaceAll('VICTIM', victim).replaceAll('PUSH', 'git push origin main');
