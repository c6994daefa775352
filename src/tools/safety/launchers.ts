/**
 * Launchers: programs that run commands the text does not show, or run them later or elsewhere —
 * terminal multiplexers, schedulers, containers, build tools and package scripts (`make`,
 * `npm run`, `npx`), network tools with command hooks (`ssh -o ProxyCommand`, `nc -e`, `socat
 * EXEC:`). What they run cannot be classified, so running it counts as destructive.
 */
import { interpreter } from './interpreters';
import { clip, parseFlags, scan, writesFile, type Rule } from './rule-kit';
import { wrapper } from './wrappers';

const VERSION = /^(-v|-V|--version|-h|--help|version)$/;
const onlyVersion = (args: { text: string }[]): boolean => args.length === 1 && VERSION.test(args[0]!.text);

/** Runs commands whatever its arguments say, unless it is only asked for its version. */
const launcher =
  (what: string): Rule =>
  (args, ctx, name) =>
    onlyVersion(args) ? undefined : ctx.flag(`${name} ${what}`);

/** Subcommands that only read (`tmux ls`, `screen -ls`); anything else launches. */
const TMUX_READS = new Set([
  'ls',
  'list-sessions',
  'list-windows',
  'list-panes',
  'list-clients',
  'list-buffers',
  'list-keys',
  'list-commands',
  'has-session',
  'has',
  'capture-pane',
  'show-options',
  'show',
  'show-buffer',
  'show-environment',
  'info',
  'display-message',
]);
const tmux: Rule = (args, ctx) => {
  if (onlyVersion(args)) return;
  const f = parseFlags(args, ['-L', '-S', '-T', '-f', '-c']);
  if (args.some((a) => a.text === '-c' || a.text === '-f')) return ctx.flag('tmux -c (runs a command)');
  const sub = f.positionals[0]?.text;
  if (sub !== undefined && !TMUX_READS.has(sub)) ctx.flag(`tmux ${clip(sub)} (runs commands)`);
};

/**
 * Package scripts: `npm run x`, `npm test`, `yarn x`, `pnpm exec`, `npm exec`. Whatever package.json
 * says runs — text the model may have written a step before. Removals count as uninstalls.
 */
const RUNS_SCRIPTS = new Set([
  'run',
  'run-script',
  'rum',
  'urn',
  'test',
  'tst',
  't',
  'start',
  'stop',
  'restart',
  'exec',
  'x',
  'explore',
  'dlx',
  'rebuild',
  'rb',
]);
/** `npm init PKG`, `yarn create PKG`: run the package's initializer. */
const INITIALIZERS = new Set(['init', 'innit', 'create']);
const REMOVES = new Set(['uninstall', 'un', 'unlink', 'remove', 'rm', 'r', 'prune']);
/** Builtins of yarn/pnpm that are not package scripts (there, `yarn build` runs the script "build"). */
const BUILTIN = new Set([
  'install',
  'i',
  'add',
  'info',
  'list',
  'ls',
  'why',
  'outdated',
  'upgrade',
  'up',
  'update',
  'config',
  'audit',
  'licenses',
  'bin',
  'cache',
  'login',
  'logout',
  'view',
  'root',
  'store',
  'whoami',
  'help',
  'npm',
  'import',
  'fetch',
  'pack',
]);
const packageManager: Rule = (args, ctx, name) => {
  if (onlyVersion(args)) return;
  const f = parseFlags(args, ['-C', '--prefix', '--dir', '--cwd', '-w', '--workspace', '--filter', '-F']);
  const sub = f.positionals[0]?.text;
  if (sub === undefined) return;
  if (REMOVES.has(sub)) return ctx.flag(`${name} ${sub} (uninstalls)`);
  if (INITIALIZERS.has(sub)) return f.positionals[1] ? ctx.flag(`${name} ${sub} (runs a package)`) : undefined;
  if (RUNS_SCRIPTS.has(sub) || (name !== 'npm' && !BUILTIN.has(sub))) ctx.flag(`${name} ${clip(sub)} (runs package scripts)`);
};

/** bun and deno are package managers and interpreters; their script runners count as launchers. */
const JS_BUILTIN = new Set([
  'install',
  'i',
  'add',
  'update',
  'outdated',
  'pm',
  'info',
  'fmt',
  'lint',
  'check',
  'doc',
  'types',
  'completions',
  'upgrade',
  'link',
]);
const jsRuntime: Rule = (args, ctx, name) => {
  const sub = args[0]?.text ?? '';
  if (JS_BUILTIN.has(sub)) return;
  if (REMOVES.has(sub)) return ctx.flag(`${name} ${sub} (uninstalls)`);
  if (sub === 'test' || sub === 'task' || sub === 'x' || sub === 'create') return ctx.flag(`${name} ${sub} (runs package scripts)`);
  interpreter(args, ctx, name);
};

/** cargo run, go run, go generate: build and run code from the project. */
const buildRun =
  (runs: string[]): Rule =>
  (args, ctx, name) => {
    const sub = parseFlags(args).positionals[0]?.text ?? '';
    if (runs.includes(sub)) ctx.flag(`${name} ${sub} (runs project code)`);
    if (sub === 'uninstall' || sub === 'clean') ctx.flag(`${name} ${sub} (deletes files)`);
  };

/** ssh and scp options that run a local command before connecting. */
const LOCAL_COMMAND = /ProxyCommand|LocalCommand|KnownHostsCommand|PermitLocalCommand|Match\s+exec/i;
const ssh: Rule = (args, ctx, name) => {
  if (args.some((a) => LOCAL_COMMAND.test(a.text))) ctx.flag(`${name} -o ProxyCommand (runs a local command)`);
  if (args.some((a) => a.text === '-F')) ctx.flag(`${name} -F (config may run commands)`);
  if (name === 'ssh') return wrapper(args, ctx, name);
  if (args.some((a) => a.text === '-S')) ctx.flag(`${name} -S (runs a program)`);
  if (name === 'scp' && !onlyVersion(args)) ctx.flag('scp (overwrites its target)');
};

const netcat: Rule = (args, ctx, name) => {
  if (args.some((a) => /^(-[a-zA-Z]*[ec]|--exec|--sh-exec|--lua-exec)/.test(a.text))) ctx.flag(`${name} -e (runs a program)`);
  else if (!onlyVersion(args)) ctx.flag(`${name} (sends or serves data over the network)`);
};

const socat: Rule = (args, ctx) => {
  if (args.some((a) => a.dynamic || /(^|!!)(exec|system|open|create|creat|gopen|pipe):/i.test(a.text)))
    ctx.flag('socat runs a program or writes a file');
  else if (args.some((a) => /^(tcp|udp|sctp|openssl|socks|proxy|dccp|ip)[46]?(-[a-z]+)?:/i.test(a.text))) ctx.flag('socat (network)');
};

const tcpdump: Rule = (args, ctx) =>
  void scan(args, 'zwrcCiFGsWTyEMBV', (opt, v) => {
    if (opt === '-z') ctx.flag('tcpdump -z (runs a program)');
    if (opt === '-w' && writesFile(v)) ctx.flag('tcpdump -w (overwrites a file)');
  });

const zip: Rule = (args, ctx) => {
  if (args.some((a) => /^(-TT|--unzip-command)/.test(a.text))) ctx.flag('zip -TT (runs a program)');
  if (args.some((a) => /^-[a-zA-Z]*[md]/.test(a.text) && !a.text.startsWith('--'))) ctx.flag('zip -m/-d (deletes files)');
};

const gdb: Rule = (args, ctx, name) => {
  if (
    args.some((a) =>
      /^--?(ex|x|batch|eval-command|command|iex|ix|init-eval-command|init-command)$|^--?(eval-command|command)=/.test(a.text),
    )
  )
    ctx.flag(`${name} runs debugger commands`);
};

const crontab: Rule = (args, ctx) => {
  const f = parseFlags(args, ['-u']);
  if (f.short.has('r')) return ctx.flag('crontab -r');
  if (f.short.has('e') || f.positionals.length > 0) ctx.flag('crontab installs commands');
};

const DOCKER_VALUES = ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'];
/** docker/podman: removals, and commands run inside containers. */
const docker: Rule = (args, ctx, name) => {
  const [a, b] = parseFlags(args, DOCKER_VALUES).positionals.map((x) => x.text);
  const group = ['system', 'volume', 'image', 'container', 'network', 'builder'].includes(a ?? '');
  if (a === 'rm' || a === 'rmi' || a === 'kill') return ctx.flag(`${name} ${a}`);
  if (group && ['prune', 'rm', 'remove', 'kill'].includes(b ?? '')) return ctx.flag(`${name} ${a} ${b}`);
  if (a === 'exec' || a === 'run' || a === 'create' || (a === 'container' && (b === 'exec' || b === 'run')))
    return ctx.flag(`${name} ${a} (runs a command in a container)`);
  if (a === 'compose' && (b === 'run' || b === 'exec')) return ctx.flag(`${name} compose ${b} (runs a command in a container)`);
  if (a === 'compose' && b === 'down' && args.some((x) => /^(-v|--volumes|--rmi)/.test(x.text))) ctx.flag(`${name} compose down -v`);
};

/** ripgrep's preprocessor and hostname hooks run a program per file. */
const rg: Rule = (args, ctx) => {
  const hook = args.find((a) => /^--(pre|hostname-bin)(=|$)/.test(a.text));
  if (hook) ctx.flag(`rg ${hook.text.split('=')[0]} (runs a program)`);
};

export const LAUNCHER_RULES: Record<string, Rule> = {
  rg,
  script: launcher('runs a command in a new terminal'),
  screen: (args, ctx) => (args.some((a) => /^-(ls|list|v|version)$/.test(a.text)) ? undefined : ctx.flag('screen runs commands')),
  tmux,
  at: (args, ctx) => (args.some((a) => /^-[lc]$/.test(a.text)) ? undefined : ctx.flag('at schedules a command')),
  batch: launcher('schedules a command'),
  crontab,
  'systemd-run': launcher('runs a command as a service'),
  parallel: launcher('runs commands'),
  'start-stop-daemon': launcher('runs a daemon'),
  'run-parts': (args, ctx) =>
    args.some((a) => /^--(test|list)$/.test(a.text)) ? undefined : ctx.flag('run-parts runs every script in a directory'),
  capsh: (args, ctx) =>
    args.some((a) => a.text === '--' || /^-c|^--(chroot|user)/.test(a.text)) ? ctx.flag('capsh runs a shell') : undefined,
  make: launcher('runs Makefile recipes'),
  gmake: launcher('runs Makefile recipes'),
  bmake: launcher('runs Makefile recipes'),
  just: (args, ctx) =>
    args.some((a) => /^--(list|summary|show|version|help|dump)$|^-l$/.test(a.text)) ? undefined : ctx.flag('just runs recipes'),
  npm: packageManager,
  yarn: packageManager,
  pnpm: packageManager,
  npx: launcher('runs a package'),
  pnpx: launcher('runs a package'),
  bunx: launcher('runs a package'),
  bun: jsRuntime,
  deno: jsRuntime,
  cargo: buildRun(['run', 'install']),
  go: buildRun(['run', 'generate']),
  ssh,
  scp: ssh,
  sftp: ssh,
  nc: netcat,
  ncat: netcat,
  netcat,
  socat,
  tcpdump,
  zip,
  gdb,
  lldb: gdb,
  docker,
  podman: docker,
  nerdctl: docker,
};
