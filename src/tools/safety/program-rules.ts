/**
 * Per-program rules: the classifier hands every simple command here as words with quoting removed,
 * and a rule reports what makes it destructive (`rm -rf`, `git push --force`, `dd of=`, …).
 */
import type { Arg } from './shell-parser';
import { interpreter, language } from './interpreters';
import { clip, dangerousTarget, has, hasLong, isSafeSink, parseFlags, type Rule } from './rule-kit';
import { find, wrapper, WRAPPERS, xargs } from './wrappers';

const always: Rule = (_args, ctx, name) => ctx.flag(name);

const rm: Rule = (args, ctx) => {
  const f = parseFlags(args);
  if (hasLong(f, '--help', '--version')) return; // prints and exits without deleting
  const r = has(f, 'rR', '--recursive');
  const force = has(f, 'f', '--force');
  if (r || force) return ctx.flag(`rm -${r ? 'r' : ''}${force ? 'f' : ''}`);
  for (const p of f.positionals) {
    const t = dangerousTarget(p);
    if (t) return ctx.flag(`rm of ${t}`);
  }
};

const disk: Rule = (args, ctx, name) => {
  if (!has(parseFlags(args), 'l', '--list')) ctx.flag(name); // -l only lists partitions
};

const chmodLike: Rule = (args, ctx, name) => {
  const f = parseFlags(args);
  if (has(f, 'R', '--recursive')) return ctx.flag(`${name} -R`);
  if (f.positionals.some((p) => dangerousTarget(p) === '/')) ctx.flag(`${name} on /`);
};

const mv: Rule = (args, ctx) => {
  const ops = parseFlags(args, ['-t', '-S', '--target-directory', '--suffix']).positionals;
  if (ops.length >= 2 && ops[ops.length - 1]!.text === '/dev/null') return ctx.flag('mv onto /dev/null');
  for (const p of ops.slice(0, -1)) {
    const t = p.dynamic ? (/^\$\{?HOME\}?\/?$/.test(p.text) ? '$HOME' : null) : dangerousTarget(p);
    if (t === '/' || t?.startsWith('~') || t === '$HOME') return ctx.flag(`mv of ${t}`);
  }
};

const tee: Rule = (args, ctx) => {
  const f = parseFlags(args);
  if (has(f, 'a', '--append')) return;
  const file = f.positionals.find((p) => (p.dynamic ? p.node?.type !== 'process_substitution' : !isSafeSink(p.text)));
  if (file) ctx.flag(`tee overwrites ${clip(file.text)}`);
};

const GIT_VALUES = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'];
const git: Rule = (args, ctx) => {
  const at = args.findIndex((a, i) => !a.text.startsWith('-') && !GIT_VALUES.includes(args[i - 1]?.text ?? ''));
  if (at < 0) return;
  const sub = args[at]!.text;
  const rest = args.slice(at + 1);
  const f = parseFlags(rest);
  const p = f.positionals.map((a) => a.text);
  const hit = (what: string): void => ctx.flag(`git ${what}`);
  switch (sub) {
    case 'reset':
      return hasLong(f, '--hard') ? hit('reset --hard') : undefined;
    case 'clean':
      return has(f, 'f', '--force') && !has(f, 'n', '--dry-run') ? hit('clean -f') : undefined;
    case 'push':
      if (has(f, 'f', '--force', '--force-with-lease', '--mirror')) return hit('push --force');
      if (has(f, 'd', '--delete', '--prune') || p.some((r) => r.startsWith(':'))) return hit('push --delete');
      return p.some((r) => r.startsWith('+')) ? hit('push +refspec') : undefined;
    case 'checkout':
    case 'switch':
      if (has(f, 'f', '--force', '--discard-changes')) return hit(`${sub} --force`);
      if (rest.some((a) => a.text === '--') || p.some((r) => /^(\.|:\/|\*)/.test(r))) return hit('checkout -- paths');
      return;
    case 'restore':
      return has(f, 'S', '--staged') && !has(f, 'W', '--worktree') ? undefined : hit('restore');
    case 'stash':
      return p[0] === 'drop' || p[0] === 'clear' ? hit(`stash ${p[0]}`) : undefined;
    case 'branch':
      return f.short.has('D') || (has(f, 'd', '--delete') && has(f, 'f', '--force')) ? hit('branch -D') : undefined;
    case 'filter-branch':
    case 'filter-repo':
      return hit(sub);
    case 'reflog':
      return p[0] === 'expire' || p[0] === 'delete' ? hit(`reflog ${p[0]}`) : undefined;
    case 'gc':
      return f.long.some((l) => /^--prune=(now|all)$/.test(l)) ? hit('gc --prune=now') : undefined;
    case 'update-ref':
      return has(f, 'd') ? hit('update-ref -d') : undefined;
    case 'rm':
      return has(f, 'f', '--force') ? hit('rm -f') : undefined;
  }
};

/** First operand after global options, for `docker -H x rm`, `kubectl -n ns delete`. */
function subcommands(args: Arg[], values: readonly string[]): string[] {
  return parseFlags(args, values).positionals.map((a) => a.text);
}

const docker: Rule = (args, ctx, name) => {
  const [a, b] = subcommands(args, ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level']);
  const group = ['system', 'volume', 'image', 'container', 'network', 'builder'].includes(a ?? '');
  if (a === 'rm' || a === 'rmi' || a === 'kill') return ctx.flag(`${name} ${a}`);
  if (group && ['prune', 'rm', 'remove', 'kill'].includes(b ?? '')) return ctx.flag(`${name} ${a} ${b}`);
  if (a === 'compose' && b === 'down' && has(parseFlags(args), 'v', '--volumes', '--rmi')) ctx.flag(`${name} compose down -v`);
};

const KUBE_VALUES = ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'];
const SUBCOMMAND_RULES: Record<string, { values: string[]; bad: string[] }> = {
  kubectl: { values: KUBE_VALUES, bad: ['delete'] },
  oc: { values: KUBE_VALUES, bad: ['delete'] },
  terraform: { values: [], bad: ['destroy'] },
  tofu: { values: [], bad: ['destroy'] },
  pulumi: { values: ['-C', '--cwd', '-s', '--stack'], bad: ['destroy'] },
  helm: { values: ['-n', '--namespace', '--kube-context'], bad: ['uninstall', 'delete', 'del', 'un'] },
  systemctl: { values: ['-H', '--host', '-M', '--machine', '-t', '--type', '-s', '--signal'], bad: ['stop', 'disable', 'mask', 'poweroff', 'reboot', 'halt', 'kill', 'isolate', 'kexec', 'rescue', 'emergency'] },
  nft: { values: ['-f', '--file', '-I', '--includepath'], bad: ['flush', 'delete'] },
};
const bySubcommand: Rule = (args, ctx, name) => {
  const spec = SUBCOMMAND_RULES[name]!;
  const sub = subcommands(args, spec.values)[0];
  if (sub && spec.bad.includes(sub)) return ctx.flag(`${name} ${sub}`);
  if ((name === 'terraform' || name === 'tofu') && sub === 'apply' && hasLong(parseFlags(args), '-destroy')) ctx.flag(`${name} apply -destroy`);
};

/** SQL and key-value statements that drop data. */
export function sqlDanger(text: string): string | null {
  if (/\bdrop\s+(table|database|schema|view|index|user|role|collection|keyspace|column|function|procedure|trigger|sequence|type|extension|owned|materialized)\b/i.test(text)) return 'DROP';
  if (/\btruncate\b/i.test(text)) return 'TRUNCATE';
  if (text.split(';').some((s) => /\bdelete\s+from\b/i.test(s) && !/\bwhere\b/i.test(s))) return 'DELETE without WHERE';
  if (/\bflush(all|db)\b/i.test(text)) return 'FLUSHALL';
  if (/\.drop(Database)?\s*\(|\.(deleteMany|remove)\s*\(\s*\{\s*\}/.test(text)) return 'drop';
  return null;
}
const sql: Rule = (args, ctx, name) => {
  const danger = sqlDanger([...args.filter((a) => !a.dynamic).map((a) => a.text), ...ctx.stdin].join('\n'));
  if (danger) ctx.flag(`${danger} in ${name}`);
};

const kill: Rule = (args, ctx, name) => {
  // `kill -l` lists signals and `kill -0 PID` only probes; everything else sends a signal.
  const t = args.map((a) => a.text);
  if (name === 'kill' && t.some((x, i) => ['-l', '-L', '--list', '-0'].includes(x) || (x === '-s' && t[i + 1] === '0'))) return;
  ctx.flag(name);
};

const initLike: Rule = (args, ctx, name) => {
  if (args[0]?.text === '0' || args[0]?.text === '6') ctx.flag(`${name} ${args[0].text}`);
};

const RULES: Record<string, Rule> = {
  rm, git, tee, mv, find, xargs,
  unlink: always, shred: always, wipefs: always, srm: always, truncate: always, mkswap: always, blkdiscard: always,
  mke2fs: always, pkill: kill, killall: kill, skill: kill, xkill: kill, rimraf: always,
  shutdown: always, reboot: always, halt: always, poweroff: always, kill, init: initLike, telinit: initLike,
  fdisk: disk, sfdisk: disk, gdisk: disk, sgdisk: disk, cfdisk: disk, parted: disk,
  chmod: chmodLike, chown: chmodLike, chgrp: chmodLike, docker, podman: docker,
  psql: sql, mysql: sql, mariadb: sql, sqlite3: sql, sqlcmd: sql, mongo: sql, mongosh: sql, 'redis-cli': sql, 'clickhouse-client': sql,
  rmdir: (args, ctx) => {
    const f = parseFlags(args);
    if (has(f, 'p', '--parents') && f.positionals.some((p) => p.text.startsWith('/'))) ctx.flag('rmdir -p /');
  },
  dd: (args, ctx) => (args.some((a) => a.text.startsWith('of=')) ? ctx.flag('dd of=') : undefined),
  rsync: (args, ctx) => {
    const bad = args.find((a) => /^--(delete|del$|remove-source-files|remove-sent-files)/.test(a.text));
    if (bad) ctx.flag(`rsync ${bad.text.split('=')[0]}`);
  },
  crontab: (args, ctx) => (has(parseFlags(args), 'r') ? ctx.flag('crontab -r') : undefined),
  iptables: (args, ctx, name) => {
    if (has(parseFlags(args), 'FX', '--flush', '--delete-chain')) ctx.flag(`${name} -F`);
  },
};
RULES.ip6tables = RULES.iptables!;

/** The rule for a program name (already normalised by programName). */
export function ruleFor(name: string): Rule | undefined {
  if (Object.hasOwn(RULES, name)) return RULES[name];
  if (Object.hasOwn(WRAPPERS, name)) return wrapper;
  if (Object.hasOwn(SUBCOMMAND_RULES, name)) return bySubcommand;
  if (name.startsWith('mkfs')) return (_a, ctx) => ctx.flag('mkfs');
  if (language(name)) return interpreter;
  return undefined;
}

/** Programs that fetch from the network, for `curl … | sh`. */
export const DOWNLOADERS: ReadonlySet<string> = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c']);
