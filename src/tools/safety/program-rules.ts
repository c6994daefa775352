/**
 * Per-program rules: the classifier hands every simple command here as words with quoting removed,
 * and a rule reports what makes it destructive (`rm -rf`, `git push --force`, `dd of=`, …).
 */
import { programName, type Arg, type SyntaxNode } from './shell-parser';
import { commandArgv } from './syntax';
import { git } from './git-rules';
import { interpreter, language } from './interpreters';
import { LAUNCHER_RULES } from './launchers';
import { overwrites, REWRITE_RULES } from './rewrite-rules';
import { clip, dangerousTarget, has, hasLong, isSafeSink, parseFlags, runsLater, type Rule } from './rule-kit';
import { SYSTEM_RULES } from './system-rules';
import { FILE_RULES } from './file-rules';
import { isRunner, runner } from './runner-rules';
import { find, unwrap, wrapper, WRAPPERS, xargs } from './wrappers';

const always: Rule = (_args, ctx, name) => ctx.flag(name);

/** Any rm of a file deletes it for good; the reason says how bad (`rm -rf`, `rm of ~`, `rm notes.txt`). */
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
  if (f.positionals[0]) ctx.flag(`rm ${clip(f.positionals[0].text)}`);
};

const disk: Rule = (args, ctx, name) => {
  if (!has(parseFlags(args), 'l', '--list')) ctx.flag(name); // -l only lists partitions
};

const mv: Rule = (args, ctx) => {
  const ops = parseFlags(args, ['-t', '-S', '--target-directory', '--suffix']).positionals;
  if (ops.length >= 2 && ops[ops.length - 1]!.text === '/dev/null') return ctx.flag('mv onto /dev/null');
  for (const p of ops.slice(0, -1)) {
    const t = p.dynamic ? (/^\$\{?HOME\}?\/?$/.test(p.text) ? '$HOME' : null) : dangerousTarget(p);
    if (t === '/' || t?.startsWith('~') || t === '$HOME') return ctx.flag(`mv of ${t}`);
  }
  overwrites(args, ctx, 'mv');
};

const tee: Rule = (args, ctx) => {
  const f = parseFlags(args);
  const later = f.positionals.find((p) => runsLater(p.text));
  if (later) return ctx.flag(`tee ${clip(later.text)} (runs later)`);
  if (has(f, 'a', '--append')) return;
  const file = f.positionals.find((p) => (p.dynamic ? p.node?.type !== 'process_substitution' : !isSafeSink(p.text)));
  if (file) ctx.flag(`tee overwrites ${clip(file.text)}`);
};

/** First operand after global options, for `docker -H x rm`, `kubectl -n ns delete`. */
function subcommands(args: Arg[], values: readonly string[]): string[] {
  return parseFlags(args, values).positionals.map((a) => a.text);
}

const KUBE_VALUES = ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'];
const SUBCOMMAND_RULES: Record<string, { values: string[]; bad: string[] }> = {
  kubectl: { values: KUBE_VALUES, bad: ['delete', 'exec', 'run', 'debug', 'attach', 'drain', 'cp', 'replace'] },
  oc: { values: KUBE_VALUES, bad: ['delete', 'exec', 'run', 'debug', 'attach', 'drain', 'cp', 'replace', 'rsh'] },
  terraform: { values: [], bad: ['destroy', 'apply'] },
  tofu: { values: [], bad: ['destroy', 'apply'] },
  pulumi: { values: ['-C', '--cwd', '-s', '--stack'], bad: ['destroy'] },
  helm: { values: ['-n', '--namespace', '--kube-context'], bad: ['uninstall', 'delete', 'del', 'un'] },
  systemctl: {
    values: ['-H', '--host', '-M', '--machine', '-t', '--type', '-s', '--signal'],
    bad: ['stop', 'disable', 'mask', 'poweroff', 'reboot', 'halt', 'kill', 'isolate', 'kexec', 'rescue', 'emergency'],
  },
  nft: { values: ['-f', '--file', '-I', '--includepath'], bad: ['flush', 'delete'] },
};
const bySubcommand: Rule = (args, ctx, name) => {
  const spec = SUBCOMMAND_RULES[name]!;
  const sub = subcommands(args, spec.values)[0];
  if (sub && spec.bad.includes(sub)) return ctx.flag(`${name} ${sub}`);
  if ((name === 'terraform' || name === 'tofu') && sub === 'apply' && hasLong(parseFlags(args), '-destroy'))
    ctx.flag(`${name} apply -destroy`);
};

/** SQL and key-value statements that drop data. */
function sqlDanger(text: string): string | null {
  if (
    /\bdrop\s+(table|database|schema|view|index|user|role|collection|keyspace|column|function|procedure|trigger|sequence|type|extension|owned|materialized)\b/i.test(
      text,
    )
  )
    return 'DROP';
  if (/\btruncate\b/i.test(text)) return 'TRUNCATE';
  if (text.split(';').some((s) => /\bdelete\s+from\b/i.test(s) && !/\bwhere\b/i.test(s))) return 'DELETE without WHERE';
  if (/\bflush(all|db)\b/i.test(text)) return 'FLUSHALL';
  if (/\.drop(Database)?\s*\(|\.(deleteMany|remove)\s*\(\s*\{\s*\}/.test(text)) return 'drop';
  return null;
}
/** Client commands that hand a line to the shell: sqlite3 `.shell`/`.system`, psql and mysql `\!`. */
const SQL_SHELL = /(?:^|\n|;)\s*(?:\.(?:shell|system)|\\!|system)\s+([^\n]*)/g;
const sql: Rule = (args, ctx, name) => {
  const text = [...args.filter((a) => !a.dynamic).map((a) => a.text), ...ctx.stdin].join('\n');
  const danger = sqlDanger(text);
  if (danger) ctx.flag(`${danger} in ${name}`);
  for (const m of text.matchAll(SQL_SHELL)) {
    ctx.flag(`${name} runs a shell command`);
    ctx.runScript(m[1]!, true);
  }
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
  rm,
  git,
  tee,
  mv,
  find,
  xargs,
  unlink: always,
  shred: always,
  wipefs: always,
  srm: always,
  truncate: always,
  mkswap: always,
  blkdiscard: always,
  mke2fs: always,
  pkill: kill,
  killall: kill,
  skill: kill,
  xkill: kill,
  rimraf: always,
  shutdown: always,
  reboot: always,
  halt: always,
  poweroff: always,
  kill,
  init: initLike,
  telinit: initLike,
  fdisk: disk,
  sfdisk: disk,
  gdisk: disk,
  sgdisk: disk,
  cfdisk: disk,
  parted: disk,
  psql: sql,
  mysql: sql,
  mariadb: sql,
  sqlite3: sql,
  sqlcmd: sql,
  mongo: sql,
  mongosh: sql,
  'redis-cli': sql,
  'clickhouse-client': sql,
  rmdir: (args, ctx) => {
    const f = parseFlags(args);
    if (has(f, 'p', '--parents') && f.positionals.some((p) => p.text.startsWith('/'))) ctx.flag('rmdir -p /');
  },
  dd: (args, ctx) => (args.some((a) => a.text.startsWith('of=')) ? ctx.flag('dd of=') : undefined),
};

const TABLES = [RULES, REWRITE_RULES, LAUNCHER_RULES, SYSTEM_RULES, FILE_RULES];

/** The rule for a program name (already normalised by programName). */
export function ruleFor(name: string): Rule | undefined {
  if (isRunner(name)) return runner(TABLES.find((t) => Object.hasOwn(t, name))?.[name]);
  for (const table of TABLES) if (Object.hasOwn(table, name)) return table[name];
  if (Object.hasOwn(WRAPPERS, name)) return wrapper;
  if (Object.hasOwn(SUBCOMMAND_RULES, name)) return bySubcommand;
  if (name.startsWith('mkfs')) return (_a, ctx) => ctx.flag('mkfs');
  if (language(name)) return interpreter;
  return undefined;
}

/** Programs that fetch from the network, for `curl … | sh`. */
const DOWNLOADERS: ReadonlySet<string> = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c']);

/** A downloader (curl, wget, …) run anywhere inside a node, e.g. in `<(curl …)` or `$(curl …)`. */
export function findDownload(root: SyntaxNode): string | null {
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'command') {
      const argv = unwrap(commandArgv(node));
      const name = argv[0] && programName(argv[0]);
      if (name && DOWNLOADERS.has(name)) return name;
    }
    for (const c of node.namedChildren) if (c) stack.push(c);
  }
  return null;
}
