/**
 * Nothing a step nobody approved started outlives it, without a sandbox too (in the sandbox, the
 * pid namespace ends with the step). When its shell exits, every process of its session is killed —
 * `cmd &`, `nohup`, `disown`, a double fork — and so is every process that still carries the step's
 * mark in its environment, with the sessions those started: one that left the session (`setsid`)
 * inherits the mark unless it clears its environment on purpose. The after-the-fact check runs after this, so what such a process
 * wrote before it was stopped is judged with the step.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';

/** The variable that marks a step's processes. */
export const STEP_MARK = 'AISH_STEP';

export const newMark = (): string => randomBytes(12).toString('hex');

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // none left
  }
}

/** What /proc/PID/stat says of a process; undefined when it is gone. */
function statOf(pid: string): { state: string; ppid: number; session: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // After the command name in parentheses: state, ppid, pgrp, session.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: f[0]!, ppid: Number(f[1]), session: Number(f[3]) };
  } catch {
    return undefined;
  }
}

interface Round {
  /** To stop now. */
  found: number[];
  /** Started after the step's shell and reading no environment at all: in the middle of an exec, to look at again. */
  unsure: number;
}

/**
 * One look through /proc (our own pid aside): the processes in one of `sessions` (the step's own,
 * and any a marked process started), and those whose environment holds `STEP_MARK=mark`, whose
 * sessions join `sessions`. Nothing where /proc cannot be read.
 */
function look(mark: string, sessions: Set<number>, own: number | undefined, after: number): Round {
  const needle = Buffer.from(`\0${STEP_MARK}=${mark}\0`);
  const first = Buffer.from(`${STEP_MARK}=${mark}\0`);
  const round: Round = { found: [], unsure: 0 };
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return round;
  }
  for (const pid of pids) {
    const st = statOf(pid);
    if (!st || st.state === 'Z') continue; // gone, or dead already
    if (sessions.has(st.session)) {
      round.found.push(Number(pid));
      continue;
    }
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (env.includes(needle) || env.subarray(0, first.length).equals(first)) {
      round.found.push(Number(pid));
      if (st.session !== own) sessions.add(st.session);
    } else if (env.length === 0 && Number(pid) > after && st.ppid !== 2) {
      // No environment at all: a kernel thread (a child of kthreadd, pid 2), or a process between
      // the two halves of an exec, whose mark shows again in a moment.
      round.unsure++;
    }
  }
  return round;
}

/** Sleep without the event loop (a few milliseconds, only while an exec is under way). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Stop what the step left running: its group, then every process of its session (the shell is
 * started as a session leader, so `session` is its pid) or of a session a marked process started,
 * and each marked process, until a round finds none and no process is caught mid-exec.
 */
export function reap(session: number | undefined, mark: string): void {
  if (session) killGroup(session);
  const own = statOf('self')?.session;
  const sessions = new Set<number>(session && session !== own ? [session] : []);
  for (let round = 0; round < 40; round++) {
    const { found, unsure } = look(mark, sessions, own, session ?? 0);
    if (!found.length && !unsure) return;
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (!found.length) pause(5);
  }
}

/** prctl's number by architecture (the generic table: arm64, riscv64, loong64 share it). */
const PRCTL: Partial<Record<string, number>> = {
  x64: 157,
  arm64: 167,
  riscv64: 167,
  loong64: 167,
  ia32: 172,
  arm: 172,
  s390x: 172,
  ppc64: 171,
};

/**
 * A perl one-liner that makes itself the child subreaper (PR_SET_CHILD_SUBREAPER, 36), runs the
 * shell, and when it exits kills every process left under it: an orphan of the step — `setsid`,
 * a double fork, `env -i`, whatever it did to its environment and session — is re-parented to
 * this process, not to init, so none gets away. It exits as the shell did (re-raising its signal).
 * Without prctl it runs the shell as it is.
 */
const SUBREAPER = `
my ($nr) = splice(@ARGV, 0, 1);
syscall($nr, 36, 1, 0, 0, 0) == 0 or exec { $ARGV[0] } @ARGV or exit 127;
$SIG{$_} = sub {} for qw(INT TERM HUP QUIT);
my $pid = fork;
exec { $ARGV[0] } @ARGV or exit 127 if defined $pid && $pid == 0;
defined $pid or exit 127;
1 until waitpid($pid, 0) == $pid;
my $st = $?;
sub ppid { open(my $f, '<', "/proc/$_[0]/stat") or return 0; my $l = <$f> // ''; $l =~ /.*\\) \\S+ (\\d+)/s ? $1 : 0 }
for (1 .. 400) {
  opendir(my $d, '/proc') or last;
  my @left = grep { /^\\d+$/ && ppid($_) == $$ } readdir $d;
  last unless @left;
  kill 9, @left;
  1 while waitpid(-1, 1) > 0;
  select(undef, undef, undef, 0.005);
}
if ($st & 127) { $SIG{$_} = 'DEFAULT' for keys %SIG; kill $st & 127, $$; }
exit($st >> 8);
`;

let perl: string | null | undefined;

/** perl on PATH, looked up once; null when there is none. */
function findPerl(path: string | undefined): string | null {
  if (perl !== undefined) return perl;
  perl = null;
  for (const dir of (path ?? '').split(':').filter(Boolean)) {
    try {
      accessSync(`${dir}/perl`, constants.X_OK);
      perl = `${dir}/perl`;
      break;
    } catch {
      // not here
    }
  }
  return perl;
}

/** `file args` run under the subreaper (above), when this machine has perl and a known prctl. */
export function underSubreaper(file: string, args: string[], path: string | undefined): { file: string; args: string[] } {
  const nr = process.platform === 'linux' ? PRCTL[process.arch] : undefined;
  const p = nr === undefined ? null : findPerl(path);
  return p ? { file: p, args: ['-e', SUBREAPER, String(nr), file, ...args] } : { file, args };
}
