/**
 * Running git against a shadow repository: `--git-dir=<shadow> --work-tree=<dir>`, in an
 * environment cleaned of the user's git variables and global/system config, so nothing the user's
 * shell or ~/.gitconfig says can point git at the user's own repository or run their hooks.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { devNull } from 'node:os';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { AishError, errnoCode } from '../util/errors';
import { describeFsError } from '../util/fs-safe';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitCall {
  input?: string;
  /** Paths in pathspecs are taken literally (no globs, no magic). */
  literal?: boolean;
  /** Exit codes that are not failures (e.g. `add --ignore-errors` exits 1 after skipping a file). */
  allow?: number[];
  /** Without `--work-tree` (`init`). */
  bare?: boolean;
  /** The umask git runs with (files it creates start no wider than this allows). */
  umask?: number;
}

/** Settings on every call; the shadow config repeats them, this covers older shadows and -c-only keys. */
const FLAGS = [
  '-c',
  'core.hooksPath=' + devNull,
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.safecrlf=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'user.name=aish',
  '-c',
  'user.email=aish@localhost',
  // The shadow is ours and its config is ours; ownership of the user's directory does not matter.
  '-c',
  'safe.directory=*',
];

/**
 * The shadow's info/attributes: files are stored and written back byte for byte, and no filter
 * driver runs (`-filter` here outranks every .gitattributes and core.attributesFile).
 */
export const SHADOW_ATTRIBUTES = '* -text -filter -ident !eol !working-tree-encoding\n';

/**
 * Put the shadow's info/attributes back as aish wrote it, before each git call on the work tree.
 * A step run without a sandbox can write the shadow (it is the user's file): a `filter=x` there and
 * a `filter.x.clean` in the shadow's config would make aish's own next `git add` (or the check's
 * `git checkout`) start a program after the step, where nothing judges or reaps it.
 */
function guardAttributes(gitDir: string): void {
  const path = join(gitDir, 'info', 'attributes');
  let now: string | null = null;
  try {
    now = readFileSync(path, 'utf8');
  } catch {
    // missing: written below
  }
  if (now === SHADOW_ATTRIBUTES) return;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(path, SHADOW_ATTRIBUTES, { mode: 0o600 });
  } catch (err) {
    throw new AishError(`checkpoint failed: cannot write ${path}: ${describeFsError(err)}`);
  }
}

/** The caller's environment without any GIT_* variable, and with no global or system config. */
export function gitEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('GIT_')) env[k] = v;
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = devNull;
  env.GIT_TERMINAL_PROMPT = '0';
  // Messages are parsed (index.lock, unreadable files): keep them in English.
  env.LC_ALL = 'C';
  return env;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Git {
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly bin = 'git',
  ) {}

  /** Run one git command; a failure becomes one line (`git add: …`), never a stack. */
  async run(args: string[], call: GitCall = {}): Promise<GitResult> {
    // Another aish on the same directory may hold the shadow's index for a moment.
    for (let attempt = 0; ; attempt++) {
      const r = await this.spawn(args, call);
      if (r.code === 0 || call.allow?.includes(r.code)) return r;
      if (attempt < 20 && r.stderr.includes('index.lock')) {
        await sleep(25 * (attempt + 1));
        continue;
      }
      const line = r.stderr.split('\n').find((l) => /^(fatal|error):/.test(l)) ?? r.stderr.split('\n')[0] ?? '';
      throw new AishError(`checkpoint failed: git ${args[0]}: ${line.replace(/^(fatal|error): /, '') || `exit ${r.code}`}`);
    }
  }

  private spawn(args: string[], call: GitCall): Promise<GitResult> {
    if (!call.bare) guardAttributes(this.gitDir);
    const env = gitEnv(process.env);
    if (call.literal) env.GIT_LITERAL_PATHSPECS = '1';
    return new Promise((resolve, reject) => {
      const where = call.bare ? [] : [`--git-dir=${this.gitDir}`, `--work-tree=${this.workTree}`];
      // The child inherits the umask at spawn: set for that moment only (it only ever narrows).
      const old = call.umask === undefined ? undefined : process.umask(call.umask);
      let child;
      try {
        child = spawn(this.bin, [...FLAGS, ...where, ...args], {
          cwd: call.bare ? this.gitDir : this.workTree,
          env,
          stdio: ['pipe', 'pipe', 'pipe'],
        });
      } finally {
        if (old !== undefined) process.umask(old);
      }
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.on('error', (e) => {
        reject(
          errnoCode(e) === 'ENOENT'
            ? new AishError(`checkpoints need git, which was not found (${this.bin}) — install git, or set safety.checkpoints: false`)
            : e,
        );
      });
      child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: err }));
      // A child that exits early closes stdin; that is not our error.
      child.stdin.on('error', () => {});
      child.stdin.end(call.input ?? '');
    });
  }
}

/** NUL-separated output (`-z`) as a list, without the empty tail. */
export function splitZ(s: string): string[] {
  const parts = s.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** Paths for `--pathspec-from-file=- --pathspec-file-nul`. */
export function joinZ(paths: string[]): string {
  return paths.map((p) => p + '\0').join('');
}
