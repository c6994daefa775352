/**
 * The Linux sandbox: bubblewrap. The whole file system is visible read-only (so shells, node, git
 * and compilers keep working); the working directory is the only writable place besides a private
 * /tmp; the network is a namespace of its own with nothing but loopback.
 */
import { realPath } from '../../util/paths';
import type { Sandbox, SandboxView } from './types';

/**
 * Kept from the host inside the masked /run: NixOS puts its system profile (and PATH) there, and
 * systemd-resolved's resolv.conf points there (DNS, when the network is allowed).
 */
const RUN_KEPT = ['/run/current-system', '/run/booted-system', '/run/wrappers', '/run/systemd/resolve'];

/** Files of a repository that can make git run a program. */
const GIT_PROGRAM_FILES = ['config', 'hooks', 'info/attributes'];

export interface BwrapOptions {
  network: boolean;
  /** Where the command starts. Already resolved: bubblewrap cannot mount onto a path that is a symlink. */
  cwd: string;
  /** The one writable directory (resolved); default `cwd`; null: nothing but the private /tmp. */
  writable?: string | null;
  /** The project (resolved), bound read-only when it is not writable: under /tmp or /run it would be hidden. */
  project?: string;
  /** Resolved credential stores to cover: directories with an empty read-only tmpfs, files with /dev/null. */
  hidden?: SandboxView['hidden'];
  /** Resolved paths inside `writable` to keep read-only. */
  readOnly?: string[];
  /** [source, target] pairs bound read-only, target over source's content. */
  replaced?: Array<[string, string]>;
}

/** Everything between `bwrap` and the program it runs. Pure. */
export function bwrapOptions(o: BwrapOptions): string[] {
  const { network, cwd, writable = cwd, project, hidden = { dirs: [], files: [] }, readOnly = [], replaced = [] } = o;
  return [
    // Nothing outlives aish or a cancel: when bwrap dies its child is killed, and with that first
    // process of the pid namespace, everything inside. No --new-session: the sandbox stays in the
    // caller's process group, so runShell's SIGKILL to the group also reaches a child that bwrap
    // had not yet tied to its own life (a cancel right at the start). runShell already starts it
    // in a session of its own with no terminal, so there is none to push keystrokes into (TIOCSTI).
    '--die-with-parent',
    '--unshare-pid',
    ...(network ? [] : ['--unshare-net']),
    // Started by root, bubblewrap keeps every capability, and the command could remount / writable.
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    // Sockets of the user's session bus, systemd, Docker and agents live here; through them a
    // command could have a process outside the sandbox write for it.
    '--tmpfs',
    '/run',
    ...RUN_KEPT.flatMap((p) => ['--ro-bind-try', p, p]),
    // Last, so it also works when the project directory is under /tmp or /run. Only the project:
    // a cwd the model names is where the command starts, never what it may write. A read-only step
    // still sees the project (the tmpfs above would hide one under /tmp or /run).
    ...(writable !== null ? writableBinds(writable) : project ? ['--ro-bind', project, project] : []),
    ...readOnly.flatMap((p) => ['--ro-bind-try', p, p]),
    ...replaced.flatMap(([from, to]) => ['--ro-bind', from, to]),
    // After the project bind, so that `.env` files inside the project are covered too.
    ...hidden.dirs.flatMap((d) => ['--tmpfs', d, '--remount-ro', d]),
    ...hidden.files.flatMap((f) => ['--ro-bind', '/dev/null', f]),
    '--chdir',
    cwd,
    '--setenv',
    'TMPDIR',
    '/tmp',
  ];
}

function writableBinds(dir: string): string[] {
  return [
    '--bind',
    dir,
    dir,
    // A repository's config and hooks name programs that git runs later, for steps a person
    // approved as much as for unasked ones (`git status` reads core.fsmonitor, `git diff` diff
    // drivers): a step must not be able to plant them. Above the project they are read-only already.
    ...GIT_PROGRAM_FILES.flatMap((f) => ['--ro-bind-try', `${dir}/.git/${f}`, `${dir}/.git/${f}`]),
  ];
}

/** bubblewrap's own errors are one line, `bwrap: …`, and exit 1 before the command starts. */
export function bwrapStartFailure(name: string, exitCode: number | null, output: string): string | null {
  if (exitCode !== 1) return null;
  const m = /^bwrap: ([^\n]*)\n?$/.exec(output);
  return m ? `aish: the sandbox (${name}) could not start the command: ${m[1]}` : null;
}

export function bwrapSandbox(file: string, name: string, network: boolean): Sandbox {
  return {
    name,
    network,
    wrap(shell, command, cwd, view) {
      const opts = view
        ? {
            network: view.network,
            cwd: realPath(cwd),
            writable: view.writable && realPath(view.writable),
            ...(view.project !== undefined && { project: realPath(view.project) }),
            hidden: view.hidden,
            readOnly: view.readOnly ?? [],
            replaced: view.replaced ?? [],
          }
        : { network, cwd: realPath(cwd) };
      return { file, args: [...bwrapOptions(opts), '--', shell, '-c', command] };
    },
    startFailure(exitCode, output) {
      return bwrapStartFailure(name, exitCode, output);
    },
  };
}

/** `bwrap --version` prints "bubblewrap 0.8.0". */
export function bwrapName(versionOutput: string): string {
  const m = /^bubblewrap\s+(\S+)/m.exec(versionOutput);
  return m ? `bubblewrap ${m[1]}` : 'bubblewrap';
}
