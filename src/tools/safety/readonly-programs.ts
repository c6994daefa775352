/**
 * The read-only programs: what each may be given and still only read. `inert` programs have no
 * option that writes, runs another program or changes the system, so any arguments will do, globs
 * and `$(…)` included. The others list the options that do (`sort -o`, `find -delete`, `rg --pre`)
 * and take only literal words: a glob or an expansion could turn into one of those options
 * (a file named `-delete`, `$(echo -o out)`).
 */
import type { Arg } from './shell-parser';
import { sedDanger } from './rewrite-rules';
import { isOpt, scan } from './rule-kit';
import { gitReadOnly } from './readonly-git';

/** Why the arguments make the command more than a read, or null when they do not. */
type Check = (args: Arg[], name: string) => string | null;

const INERT = [
  'cat',
  'ls',
  'head',
  'tail',
  'wc',
  'nl',
  'cut',
  'tr',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'pwd',
  'cd',
  'uname',
  'whoami',
  'id',
  'groups',
  'who',
  'w',
  'users',
  'tty',
  'locale',
  'nproc',
  'uptime',
  'free',
  'arch',
  'getconf',
  'lscpu',
  'lsblk',
  'cal',
  'ps',
  'pgrep',
  'diff',
  'cmp',
  'comm',
  'join',
  'paste',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'tac',
  'rev',
  'seq',
  'numfmt',
  'expr',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'sum',
  'shasum',
  'md5',
  'stat',
  'du',
  'df',
  'column',
  'printenv',
  'which',
  'whereis',
  'type',
  'grep',
  'egrep',
  'fgrep',
  'jq',
  'od',
  'hexdump',
  'strings',
  'echo',
  'true',
  'false',
  'sleep',
];

/** Options (short `-o`, long `--output`, abbreviations included) that write, run or change things. */
const denying =
  (deny: string[], values = '', longValues: string[] = [], maxOperands = Infinity): Check =>
  (args, name) => {
    if (args.some((a) => a.dynamic || a.glob)) return `${name} with a generated or glob argument (it could expand to an option)`;
    const bad: string[] = [];
    const operands = scan(args, values, (opt) => void (isOpt(opt, deny) && bad.push(opt)), longValues);
    if (bad[0]) return `${name} ${bad[0]} writes files or runs programs`;
    return operands.length > maxOperands ? `${name} with ${operands.length} operands writes the last one` : null;
  };

const FIND_ACTIONS = ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'];
const find: Check = (args) => {
  if (args.some((a) => a.dynamic || a.glob)) return 'find with a generated or unquoted glob argument (it could expand to -delete)';
  const action = args.find((a) => FIND_ACTIONS.includes(a.text));
  return action ? `find ${action.text} runs commands or writes files` : null;
};

/**
 * sed printing to stdout: options that only change how it reads (`-n -E -r -s -u -z -l N`,
 * `--posix`, `--debug`, `--sandbox`), literal scripts without `e`, `w`, `W`, `s///e`, `s///w`
 * (sedDanger refuses what it does not understand). Not `-i`, `-f`.
 */
const SED_READS = [
  '-n',
  '-E',
  '-r',
  '-s',
  '-u',
  '-z',
  '-l',
  '--quiet',
  '--silent',
  '--regexp-extended',
  '--separate',
  '--unbuffered',
  '--null-data',
  '--posix',
  '--debug',
  '--sandbox',
  '--line-length',
];
const sed: Check = (args) => {
  if (args.some((a) => a.dynamic || a.glob)) return 'sed with a generated or glob argument';
  const scripts: string[] = [];
  const bad: string[] = [];
  const operands = scan(
    args,
    'efl',
    (opt, v) => {
      if (opt === '-e' || isOpt(opt, ['--expression'])) scripts.push(v?.text ?? '');
      else if (!isOpt(opt, SED_READS)) bad.push(opt);
    },
    ['--expression', '--file', '--line-length'],
  );
  if (bad[0]) return `sed ${bad[0]} may edit files or run commands`;
  const script = scripts.length === 0 ? operands.shift()?.text : undefined;
  for (const s of script === undefined ? scripts : [script]) {
    const danger = sedDanger(s);
    if (danger) return danger;
  }
  return null;
};

/** `date` prints; `date -s` and `date MMDDhhmm` set the clock. `-I` takes its format attached. */
const date: Check = (args) => {
  const rest = args.filter((a) => !/^-I[a-z]*$/.test(a.text));
  const bad = denying(['-s', '--set'], 'dfr', ['--date', '--file', '--reference'])(rest, 'date');
  if (bad) return bad;
  const operands = scan(rest, 'dfr', () => {}, ['--date', '--file', '--reference']);
  return operands.some((a) => !a.text.startsWith('+')) ? 'date with an operand sets the clock' : null;
};

/** Exactly these argument lists: version queries. (Not `env`: alone it prints the environment.) */
const exactly =
  (...allowed: string[]): Check =>
  (args, name) => {
    if (args.length === 0 ? allowed.includes('') : args.length === 1 && !args[0]!.dynamic && allowed.includes(args[0]!.text)) return null;
    return `${name} ${args.map((a) => a.text).join(' ')} is not a plain query`.trim();
  };

const HOSTNAME_READS = /^(-[sfdiIAaye]+|--(short|fqdn|long|domain|ip-address|all-ip-addresses|all-fqdns|alias|nis|yp|version|help))$/;

const CHECKS: Record<string, Check> = {
  ...Object.fromEntries(INERT.map((n) => [n, () => null])),
  git: (args) => gitReadOnly(args),
  // The test builtin: `-v NAME`/`-R NAME` evaluate an array subscript in NAME, and a value read at
  // run time may turn out to be that `-v`; so literal words only, and neither option.
  test: (args, name) =>
    args.some((a) => a.dynamic || /^-[vR]$/.test(a.text)) ? `${name} -v or a run-time value evaluates arithmetic` : null,
  '[': (args, name) =>
    args.some((a) => a.dynamic || /^-[vR]$/.test(a.text)) ? `${name} -v or a run-time value evaluates arithmetic` : null,
  find,
  sed,
  date,
  rg: denying(['--pre', '--hostname-bin', '-z', '--search-zip'], 'ABCefgjmMrtTEd', [
    '--pre',
    '--hostname-bin',
    '--regexp',
    '--file',
    '--glob',
    '--type',
    '--type-not',
  ]),
  sort: denying(['-o', '--output', '--compress-program'], 'kotST', ['--output', '--compress-program', '--key', '--field-separator']),
  uniq: denying([], 'fsw', [], 1),
  file: denying(['-C', '--compile'], 'mfFeP', ['--magic-file', '--files-from', '--separator', '--exclude', '--parameter']),
  tree: denying(['-o', '-R'], 'LPIHTo'),
  base64: denying(['-o', '--output'], 'wbio', [], 1),
  printf: (args) =>
    args[0] && (args[0].dynamic || args[0].glob || /^-[^-]/.test(args[0].text)) ? 'printf -v assigns a shell variable' : null,
  command: (args) => (/^-[vV]$/.test(args[0]?.text ?? '') && args.slice(1).every((a) => !a.dynamic) ? null : 'command runs its operand'),
  hostname: (args) => (args.every((a) => !a.dynamic && HOSTNAME_READS.test(a.text)) ? null : 'hostname with an operand sets the host name'),
  // Version queries. Not included: tools that read project files that pick the program to run
  // (yarn's yarnPath, corepack's packageManager, rustup's rust-toolchain.toml, go's toolchain line)
  // or that may load project configuration or plugins first (php.ini, terraform providers).
  node: exactly('--version', '-v'),
  npm: exactly('--version', '-v'),
  python: exactly('--version', '-V'),
  python3: exactly('--version', '-V'),
  pip: exactly('--version', '-V'),
  pip3: exactly('--version', '-V'),
  deno: exactly('--version', '-V'),
  bun: exactly('--version'),
  ruby: exactly('--version'),
  perl: exactly('--version', '-v'),
  java: exactly('--version', '-version'),
  javac: exactly('--version', '-version'),
  gcc: exactly('--version'),
  'g++': exactly('--version'),
  clang: exactly('--version'),
  cc: exactly('--version'),
  make: exactly('--version'),
  cmake: exactly('--version'),
  docker: exactly('--version'),
  tsc: exactly('--version', '-v'),
  gh: exactly('--version'),
  aws: exactly('--version'),
  bash: exactly('--version'),
  zsh: exactly('--version'),
};

/** The check for a program name exactly as written (no case folding), or null if it is not listed. */
export function readOnlyCheck(name: string): Check | null {
  return Object.hasOwn(CHECKS, name) ? CHECKS[name]! : null;
}
