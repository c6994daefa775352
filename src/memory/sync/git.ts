/**
 * git for memory sync: the user's own git (their global config carries remotes' credentials and
 * `insteadOf` rules), but never a question. No terminal prompt, no askpass program, ssh in batch
 * mode, no hooks or signing on our commits, and every call bounded by the sync's deadline: on
 * expiry the whole process group (git and the ssh it started) is killed. The clone is used as a
 * bare repository (repo.ts): nothing is checked out through git, so no filter, diff or merge driver
 * named by a `.gitattributes` in the repository ever runs.
 */
import { spawn } from 'node:child_process';
import { devNull } from 'node:os';
import { AishError, errnoCode } from '../../util/errors';
import { CSI_SEQUENCE, oneLine } from '../../util/text';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The settings every call runs with: none of them can ask anybody anything or run user code. */
const FLAGS = [
  '-c',
  `core.hooksPath=${devNull}`,
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'gc.auto=0',
  '-c',
  'maintenance.auto=false',
  '-c',
  'fetch.writeCommitGraph=false',
  '-c',
  'credential.interactive=false',
  '-c',
  'protocol.ext.allow=never',
  // A link committed to the repository is checked out as a plain file holding its target's name.
  '-c',
  'core.symlinks=false',
  '-c',
  'safe.directory=*',
  // No work tree: git itself cannot check out, clean or convert anything.
  '-c',
  'core.bare=true',
  // No attribute file but the repository's own (which names programs only for work-tree commands, never run).
  '-c',
  `core.attributesFile=${devNull}`,
  // Programs git may otherwise run on its own: signature checks in log, submodule fetches.
  '-c',
  'log.showSignature=false',
  '-c',
  'fetch.recurseSubmodules=false',
  '-c',
  'submodule.recurse=false',
  '--no-pager',
];

/** Who aish's commits are made by: with the subject `aish memory: …`, how a memory repository's history is told from a project's. */
export const AISH_EMAIL = 'aish@localhost';

/** The caller's environment with everything that could make git (or ssh) wait for a person turned off. */
export function syncGitEnv(base: NodeJS.ProcessEnv, author: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const inherited = [
    'DIR',
    'WORK_TREE',
    'INDEX_FILE',
    'OBJECT_DIRECTORY',
    'ALTERNATE_OBJECT_DIRECTORIES',
    'COMMON_DIR',
    'NAMESPACE',
    'EXTERNAL_DIFF',
  ];
  for (const k of inherited) delete env[`GIT_${k}`];
  env.GIT_TERMINAL_PROMPT = '0';
  // An askpass that answers nothing: git fails at once instead of opening a window or a prompt.
  env.GIT_ASKPASS = 'false';
  env.SSH_ASKPASS = 'false';
  env.SSH_ASKPASS_REQUIRE = 'never';
  env.GCM_INTERACTIVE = 'never';
  env.GIT_SSH_COMMAND = `${base.GIT_SSH_COMMAND || 'ssh'} -o BatchMode=yes -o ConnectTimeout=10`;
  env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = author;
  env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = AISH_EMAIL;
  env.LC_ALL = 'C';
  env.GIT_ATTR_NOSYSTEM = '1';
  return env;
}

class GitTimeout extends AishError {}

export interface GitIO {
  /** Written to git's standard input. */
  input?: string | Buffer;
  /** A file descriptor git's standard output goes to (a blob written straight to its file). */
  stdoutFd?: number;
}

/** Run git in `cwd`; resolves with its exit code and output, whatever the code. */
export function runGit(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, deadline: number, io: GitIO = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const left = deadline - Date.now();
    if (left <= 0) return reject(timeout(args));
    // Its own process group, so a timeout also ends the ssh (or helper) git started.
    const stdio = [io.input === undefined ? 'ignore' : 'pipe', io.stdoutFd ?? 'pipe', 'pipe'] as const;
    const child = spawn('git', [...FLAGS, ...args], { cwd, env, stdio: [...stdio], detached: true });
    if (io.input !== undefined) child.stdin?.end(io.input);
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, left);
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(errnoCode(e) === 'ENOENT' ? new AishError('memory sync needs git, which was not found — install git') : e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(timeout(args));
      else resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: err });
    });
  });
}

function timeout(args: readonly string[]): GitTimeout {
  return new GitTimeout(`git ${args[0]} did not finish in time (offline, or the remote did not answer)`);
}

/** A URL as it may be shown: without the user and password it may carry (`https://me:token@host/…`). */
export function shownUrl(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/\s@]+@/g, '$1');
}

/** git's summaries that say only that something failed, not why. */
const NO_REASON = /^(error: )?failed to push some refs|^To |^hint:/;

/**
 * What git said, in one line: the first `fatal:`/`error:` line, the remote's included (`remote:
 * error: …`) and those saying only "failed" skipped, else why the remote rejected a ref
 * (`! [remote rejected] … (reason)`), else the last line. Credentials in URLs and the terminal
 * controls a remote may send are dropped.
 */
export function gitSaid(r: GitResult): string {
  const lines = r.stderr
    .replace(CSI_SEQUENCE, '')
    .split(/[\r\n]+/)
    .map((l) => oneLine(l))
    .filter(Boolean);
  const said = (l: string) => /^(remote: )?(fatal|error):/.test(l) && !NO_REASON.test(l.replace(/^remote: /, ''));
  const rejected = /\[remote rejected\][^(]*\((.+)\)/.exec(r.stdout + '\n' + r.stderr)?.[1];
  const line = lines.find(said) ?? (rejected && `the remote rejected the push: ${oneLine(rejected)}`) ?? lines.at(-1) ?? `exit ${r.code}`;
  if (/askpass|could not read (Username|Password)|terminal prompts disabled/i.test(line))
    return 'the remote asks for a user name or password, and sync never asks — let git fetch without a prompt (a credential helper, or an ssh key)';
  return shownUrl(line.replace(/^(remote: )?(fatal|error): /, '')).slice(0, 300);
}
