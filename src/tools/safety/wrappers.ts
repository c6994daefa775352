/**
 * Programs that run another command: wrappers (sudo, env, timeout, ssh, …), `find -exec` and
 * `xargs`. The command they run goes back through the classifier, so it meets the same rules at
 * any depth.
 */
import { programName, type Arg } from './shell-parser';
import { clip, isSafeSink, lit, programVariable, type Rule, type RuleContext } from './rule-kit';

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
export const WRAPPERS: Record<string, Wrapper> = {
  sudo: {
    values: [
      '-u',
      '-g',
      '-C',
      '-D',
      '-h',
      '-p',
      '-r',
      '-t',
      '-U',
      '-T',
      '--user',
      '--group',
      '--chdir',
      '--host',
      '--prompt',
      '--role',
      '--type',
      '--other-user',
      '--command-timeout',
      '--close-from',
    ],
    assignments: true,
    inert: ['-e', '--edit', '-l', '--list', '-v', '--validate'],
  },
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
  ssh: {
    values: ['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B'],
    skip: 1,
    join: true,
  },
  su: {
    values: ['-s', '--shell', '-g', '--group', '-G', '--supp-group', '-w'],
    scripts: ['-c', '--command', '--session-command'],
    noCommand: true,
  },
  runuser: { values: ['-u', '-g', '-G', '--user', '--group', '--supp-group', '-s', '--shell'], scripts: ['-c', '--command'] },
  setarch: { skip: 1 },
  linux32: {},
  linux64: {},
  chrt: { values: ['-T', '-P', '-D'], skip: 1 },
  unshare: {},
  nsenter: { values: ['-t', '--target'] },
  prlimit: {},
  valgrind: {},
  eatmydata: {},
  fakeroot: {},
  pkexec: { values: ['--user'] },
  'xvfb-run': {},
  caffeinate: {},
  'systemd-inhibit': {},
  nohup: {},
  setsid: {},
  builtin: {},
  unbuffer: {},
  busybox: {},
  toybox: {},
  torsocks: {},
  proxychains: { values: ['-f'] },
  proxychains4: { values: ['-f'] },
  firejail: {},
  chronic: {},
  ifne: {},
  nocache: {},
  catchsegv: {},
  'dbus-run-session': {},
  setpriv: {},
  sg: { skip: 1, scripts: ['-c'] },
  entr: { join: true },
  numactl: { values: ['-C', '-N', '-m', '-p', '-i', '--physcpubind', '--cpunodebind', '--membind', '--preferred', '--interleave'] },
  cgexec: { values: ['-g'] },
  gtimeout: { values: ['-s', '-k', '--signal', '--kill-after'], skip: 1 },
  gstdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
};

export const wrapper: Rule = (args, ctx, name) => {
  const w = WRAPPERS[name]!;
  if (name === 'env' && args[0]?.text === '-') args = args.slice(1); // `env -` is `env -i`
  let skip = w.skip ?? 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    let [opt, inline] = a.text.split(/=(.*)/s, 2) as [string, string | undefined];
    // A short script option with its script attached: `env -S'rm -rf x'`, `su -c'…'`.
    const attached = w.scripts?.find((s) => s.length === 2 && a.text.startsWith(s) && a.text.length > 2);
    if (attached && !a.dynamic) [opt, inline] = [attached, a.text.slice(2)];
    if (!a.dynamic && a.text === '--') return operands(args.slice(i + 1));
    if (!a.dynamic && a.text.startsWith('-') && a.text !== '-') {
      if (w.inert?.includes(a.text)) return;
      if (w.scripts?.includes(opt)) {
        const s = inline !== undefined ? lit(inline) : args[i + 1];
        if (s?.dynamic) ctx.flag(`${name} ${opt} with unknown script`);
        else if (s) ctx.runScript(s.text);
        return;
      }
      if (w.values?.includes(a.text)) i++;
    } else if (w.assignments && !a.dynamic && /^[A-Za-z_]\w*=/.test(a.text)) {
      const variable = a.text.slice(0, a.text.indexOf('='));
      if (programVariable(variable)) ctx.flag(`${clip(variable)}=… (changes what runs)`);
    } else {
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

export const find: Rule = (args, ctx) => {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === '-delete') ctx.flag('find -delete');
    if (/^-f(print0?|printf|ls)$/.test(t) && !isSafeSink(args[i + 1]?.text ?? '')) ctx.flag(`find ${t} (writes a file)`);
    if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      const end = args.findIndex((a, j) => j > i && (a.text === ';' || a.text === '+'));
      const inner = args.slice(i + 1, end < 0 ? undefined : end);
      // The file names find substitutes are unknown: treat {} as a dynamic word.
      ctx.runArgv(
        inner.map((a) => (a.text.includes('{}') ? { ...a, dynamic: true } : a)),
        `find ${t}`,
      );
      if (end < 0) return;
      i = end;
    }
  }
};

const XARGS_VALUES = [
  '-a',
  '-d',
  '-E',
  '-I',
  '-L',
  '-n',
  '-P',
  '-s',
  '--arg-file',
  '--delimiter',
  '--eof',
  '--replace',
  '--max-lines',
  '--max-args',
  '--max-procs',
  '--max-chars',
  '--process-slot-var',
  '-J',
  '-R',
  '-S',
];
export const xargs: Rule = (args, ctx) => {
  let i = 0;
  let replace: string | null = null; // -I R, -J R, --replace=R, -i: words holding R are the input
  for (; i < args.length && args[i]!.text.startsWith('-') && !args[i]!.dynamic; i += XARGS_VALUES.includes(args[i]!.text) ? 2 : 1) {
    const t = args[i]!.text;
    if (/^-[IJ]$/.test(t)) replace = args[i + 1]?.text ?? null;
    else if (/^-[IJ]./.test(t)) replace = t.slice(2);
    else if (/^(-i|--replace)$/.test(t)) replace = '{}';
    else if (/^(-i|--replace=)./.test(t)) replace = t.slice(t.indexOf('=') + 1 || 2);
  }
  const inner = args.slice(i).map((a) => (replace && a.text.includes(replace) ? { ...a, dynamic: true } : a));
  if (inner.length > 0) ctx.runArgv([...inner, { text: '<stdin>', dynamic: true, glob: false }], 'xargs');
};

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
