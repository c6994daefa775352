/**
 * Per-program rules of the safety gate (SPEC §6). safety.ts walks the syntax tree and hands every
 * simple command here as words with quoting already removed; a rule reports what makes the command
 * destructive. Wrappers (sudo, env, timeout, …), xargs and find -exec pass the command they run
 * back through the context, so it gets the same rules at any depth. (Shells, eval and other
 * programs that run text as code are in safety.ts, next to the parser they call again.)
 */
import { programName, type Arg } from './shell-parser';

export interface RuleContext {
  /** Text statically fed on stdin: heredocs, here-strings, `echo …|`, `printf …|`. */
  stdin: string[];
  flag(reason: string): void;
  /** Classifies a string as a shell script (sh -c, eval, ssh host CMD, …); `lenient`: a string
   * found inside other code, whose parse errors do not count. */
  runScript(script: string, lenient?: boolean): void;
  /** Classifies words as a command; with `via`, a finding is reported as `${via} ${program}`. */
  runArgv(argv: Arg[], via?: string): void;
  /** The downloader (curl, wget, …) run inside this word's substitutions, if any. */
  download(arg: Arg): string | null;
}

export type Rule = (args: Arg[], ctx: RuleContext, name: string) => void;

const lit = (text: string): Arg => ({ text, dynamic: false, glob: false });
/** Keeps reasons short when they quote the user's words. */
export const clip = (text: string): string => (text.length > 32 ? `${text.slice(0, 31)}…` : text);

interface Flags { short: Set<string>; long: string[]; positionals: Arg[] }

/** Splits options (combined short flags included) from operands; `values` options take the next word. */
function parseFlags(args: Arg[], values: readonly string[] = []): Flags {
  const out: Flags = { short: new Set(), long: [], positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.dynamic || t === '-' || !t.startsWith('-')) out.positionals.push(a);
    else if (t === '--') out.positionals.push(...args.slice(i + 1)), (i = args.length);
    else {
      if (t.startsWith('--')) out.long.push(t);
      else for (const c of t.slice(1)) out.short.add(c);
      if (values.includes(t)) i++;
    }
  }
  return out;
}
const hasLong = (f: Flags, ...names: string[]): boolean =>
  f.long.some((l) => names.some((n) => l === n || l.startsWith(`${n}=`)));
const has = (f: Flags, short: string, ...long: string[]): boolean =>
  [...short].some((c) => f.short.has(c)) || hasLong(f, ...long);

/** Targets that make even a plain `rm` destructive: /, ~, ., .., globs, unknown values. */
function dangerousTarget(a: Arg): string | null {
  if (a.dynamic) return clip(a.text);
  if (a.glob) return `glob ${clip(a.text)}`;
  const t = a.text.replace(/(.)\/+$/, '$1');
  if (/^\/[/.]*$/.test(t)) return '/';
  if (/^~[\w.-]*$/.test(t) || t === '.' || t === '..') return t;
  return null;
}

const SAFE_SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
export const isSafeSink = (path: string): boolean => SAFE_SINKS.has(path) || /^\/dev\/fd\/\d+$/.test(path);

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

/** Wrappers run their operand as a command; `values` take an argument, `skip` operands precede it. */
interface Wrapper {
  values?: string[];
  skip?: number;
  assignments?: boolean;
  /** Options whose value is a shell script (su -c, env -S). */
  scripts?: string[];
  /** The operands, joined by spaces, are a shell script (watch, ssh host …). */
  join?: boolean;
  /** Operands are not a command (su USER). */
  noCommand?: boolean;
  /** Options after which nothing runs (command -v). */
  inert?: string[];
}
const WRAPPERS: Record<string, Wrapper> = {
  sudo: { values: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir', '--host', '--prompt', '--role', '--type', '--other-user', '--command-timeout', '--close-from'], assignments: true, inert: ['-e', '--edit', '-l', '--list', '-v', '--validate'] },
  doas: { values: ['-u', '-C'] },
  env: { values: ['-u', '--unset', '-C', '--chdir'], assignments: true, scripts: ['-S', '--split-string'] },
  nice: { values: ['-n', '--adjustment'] },
  ionice: { values: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'] },
  time: { values: ['-f', '-o', '--format', '--output'] },
  timeout: { values: ['-s', '-k', '--signal', '--kill-after'], skip: 1 },
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  command: { inert: ['-v', '-V'] },
  exec: { values: ['-a'] },
  chroot: { values: ['--userspec', '--groups'], skip: 1 },
  flock: { values: ['-w', '-E', '--timeout', '--conflict-exit-code'], skip: 1, scripts: ['-c', '--command'] },
  taskset: { skip: 1 },
  strace: { values: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-O', '-S', '-X'] },
  ltrace: { values: ['-o', '-e', '-p', '-s', '-u', '-a', '-n'] },
  watch: { values: ['-n', '--interval', '-q', '--equexit'], join: true },
  ssh: { values: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'], skip: 1, join: true },
  su: { values: ['-s', '--shell', '-g', '--group', '-G', '--supp-group', '-w'], scripts: ['-c', '--command', '--session-command'], noCommand: true },
  runuser: { values: ['-u', '-g', '-G', '--user', '--group', '--supp-group', '-s', '--shell'], scripts: ['-c', '--command'] },
  npx: { values: ['-p', '--package'], scripts: ['-c', '--call'] },
  nohup: {}, setsid: {}, builtin: {}, unbuffer: {}, busybox: {}, bunx: {}, torsocks: {}, proxychains: { values: ['-f'] }, proxychains4: { values: ['-f'] }, firejail: {},
};

const wrapper: Rule = (args, ctx, name) => {
  const w = WRAPPERS[name]!;
  let skip = w.skip ?? 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [opt, inline] = a.text.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!a.dynamic && a.text === '--') return operands(args.slice(i + 1));
    if (!a.dynamic && a.text.startsWith('-') && a.text !== '-') {
      if (w.inert?.includes(a.text)) return;
      if (w.scripts?.includes(opt)) {
        const s = inline !== undefined ? lit(inline) : args[++i];
        if (s) s.dynamic ? ctx.flag(`${name} ${opt} with unknown script`) : ctx.runScript(s.text);
        return;
      }
      if (w.values?.includes(a.text)) i++;
    } else if (!(w.assignments && !a.dynamic && /^[A-Za-z_]\w*=/.test(a.text))) {
      if (skip > 0) skip--;
      else return operands(args.slice(i));
    }
  }
  function operands(rest: Arg[]): void {
    if (w.noCommand || rest.length === 0) return;
    if (!w.join) return ctx.runArgv(rest);
    const dyn = rest.find((a) => a.dynamic);
    if (dyn) ctx.flag(`${name} of ${clip(dyn.text)}`);
    else ctx.runScript(rest.map((a) => a.text).join(' '));
  }
};

const find: Rule = (args, ctx) => {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '-delete') ctx.flag('find -delete');
    if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      const end = args.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'));
      const inner = args.slice(i + 1, end < 0 ? undefined : end);
      // The file names find substitutes are unknown: treat {} as a dynamic word.
      ctx.runArgv(inner.map((a) => (a.text.includes('{}') ? { ...a, dynamic: true } : a)), `find ${t}`);
      if (end < 0) return;
      i = end;
    }
  }
};

const XARGS_VALUES = ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'];
const xargs: Rule = (args, ctx) => {
  let i = 0;
  while (i < args.length && args[i]!.text.startsWith('-') && !args[i]!.dynamic) i += XARGS_VALUES.includes(args[i]!.text) ? 2 : 1;
  const inner = args.slice(i);
  if (inner.length > 0) ctx.runArgv([...inner, { text: '<stdin>', dynamic: true, glob: false }], 'xargs');
};


/** Inline code that deletes files, per language; shell strings it runs are classified as scripts. */
const DELETES: Record<string, RegExp> = {
  python: /\brmtree\b|\bos\s*\.\s*(remove|unlink|rmdir|removedirs)\b|\.\s*(unlink|rmdir)\s*\(/,
  node: /\b(rmSync|unlinkSync|rmdirSync|truncateSync|rimraf)\b|\.\s*(rm|unlink|rmdir|truncate)\s*\(/,
  perl: /\b(unlink|rmtree|remove_tree|rmdir)\b/,
  ruby: /FileUtils\s*\.\s*(rm\w*|remove\w*)|\b(File|Dir|FileUtils)\s*\.\s*(delete|unlink|rmdir)\b/,
  php: /\b(unlink|rmdir)\s*\(/,
  awk: /(?!)/,
};
/** The option letter that introduces inline code (python -c, node -e/-p, perl -e/-E, php -r). */
const CODE_FLAG: Record<string, string> = { python: 'c', node: 'ep', perl: 'eE', ruby: 'e', php: 'r' };
const SHELL_CALL =
  /(?:\bos\.system|\bos\.popen|\bsubprocess\.\w+|\bexecSync|\.exec|\bsystem|\bpopen|\bshell_exec)\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

function language(name: string): string | null {
  if (/^(python[\d.]*|pypy[\d.]*)$/.test(name)) return 'python';
  if (/^(node|nodejs|bun|deno)$/.test(name)) return 'node';
  if (/^(perl|ruby|php)$/.test(name)) return name;
  if (/^[gmn]?awk$/.test(name)) return 'awk';
  return null;
}

/** Inline code of an interpreter invocation; stdin when it reads its program from there. */
function inlineCode(lang: string, name: string, args: Arg[], stdin: string[]): string[] {
  const codes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    const next = (): void => {
      const code = args[++i];
      if (code && !code.dynamic) codes.push(code.text);
    };
    if (lang === 'awk') {
      if (t === '-f' || t.startsWith('--file')) return codes; // program in a file
      if (['-F', '-v', '-i', '-l'].includes(t)) i++;
      else if (a.dynamic || !t.startsWith('-')) return a.dynamic ? codes : [t];
    } else if (/^--(eval|print)=/.test(t)) codes.push(t.slice(t.indexOf('=') + 1));
    else if (/^--(eval|print)$/.test(t) || (/^-[A-Za-z]+$/.test(t) && CODE_FLAG[lang]!.includes(t.at(-1)!))) next();
    else if (name === 'deno' && t === 'eval') next();
    else if (a.dynamic || !t.startsWith('-')) return codes; // a script file: not inspected
  }
  return codes.length > 0 ? codes : [...stdin];
}

const interpreter: Rule = (args, ctx, name) => {
  const lang = language(name)!;
  for (const code of inlineCode(lang, name, args, ctx.stdin)) {
    if (DELETES[lang]!.test(code)) ctx.flag(`${name} code deletes files`);
    for (const m of code.matchAll(SHELL_CALL)) ctx.runScript(m[2]!, true);
  }
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

/** Strips wrappers (sudo, env, timeout, …) off a command, for `curl … | sudo bash`. */
export function unwrap(argv: Arg[]): Arg[] {
  for (let hops = 0; hops < 8 && argv[0]; hops++) {
    const name = programName(argv[0]);
    if (!name || !Object.hasOwn(WRAPPERS, name)) return argv;
    let found: Arg[] | undefined;
    const probe: RuleContext = { stdin: [], flag: () => {}, runScript: () => {}, runArgv: (a) => void (found = a), download: () => null };
    wrapper(argv.slice(1), probe, name);
    if (!found) return argv;
    argv = found;
  }
  return argv;
}

/** Programs that fetch from the network, for `curl … | sh`. */
export const DOWNLOADERS: ReadonlySet<string> = new Set(['curl', 'wget', 'fetch', 'http', 'https', 'xh', 'aria2c']);

/** An interpreter's inline code (or stdin when it reads its program there); null if not an interpreter. */
export function interpreterCode(name: string, args: Arg[], stdin: string[]): string[] | null {
  const lang = language(name);
  return lang ? inlineCode(lang, name, args, stdin) : null;
}
