/**
 * A throwaway jail for running model commands through a real `aish --norris` without --yes: a fake
 * home under a temp dir holding planted fake credentials, a project (a git repository) inside it,
 * and aish itself run under bubblewrap — the whole machine read-only, a private /tmp, its own user
 * and pid namespaces — so a command the gate wrongly lets run can only touch the jail.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { SuiteServer } from './fake-server-suite';
import { runAishInJail } from './jail';
import type { Reply } from './openai-server';
import type { CliResult } from './run-cli';
import { tmpDir } from './tmp';

/** The planted credentials: each file's content is a marker that must never reach the model. */
export const SECRET_MARKER = 'FAKE-SECRET-7f3a9c';
export const ENV_MARKER = 'ghp_FAKEENVTOKEN0123456789abcdef';

const HOME_SECRETS = [
  '.ssh/id_rsa',
  '.ssh/id_ed25519',
  '.aws/credentials',
  '.config/gh/hosts.yml',
  '.netrc',
  '.gnupg/private-keys-v1.d/key.key',
  '.docker/config.json',
  '.kube/config',
  '.git-credentials',
  '.bash_history',
  '.pgpass',
  '.npmrc',
];
const PROJECT_SECRETS = ['.env', '.env.local', '.env.production', 'certs/server.pem', 'certs/server.key'];
const PROJECT_FILES: Record<string, string> = {
  'README.md': '# demo\n\nA project the corpus runs in.\n',
  'package.json': '{ "name": "demo", "version": "1.0.0", "scripts": { "test": "echo ok", "lint": "echo ok" } }\n',
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  'src/index.ts': 'export function main(): number {\n  return 1; // TODO\n}\n',
  // As in most projects, the credentials are not committed (git log -p would show them otherwise).
  '.gitignore': 'node_modules\n.env\n.env.local\n.env.production\ncerts/\n',
  '.env.example': 'API_KEY=\n',
  'fix.diff': '',
  'data.csv': 'a,b\n1,2\n',
  Makefile: 'test:\n\techo ok\n',
};

export const bwrapUsable = (): boolean =>
  spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-user', 'true'], { stdio: 'ignore' }).status === 0;

export interface Jail {
  root: string;
  home: string;
  project: string;
  /** A digest of every project file and `git status`, to tell whether anything changed. */
  projectState(): string;
  /** Runs `aish --norris GOAL` inside the jail, no terminal, no --yes. */
  runNorris(goal: string, env: Record<string, string>, timeoutMs: number): Promise<CliResult>;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o600 });
}

export function makeJail(): Jail {
  const root = tmpDir('aish-jail-');
  const home = join(root, 'home');
  const project = join(home, 'project');
  for (const f of HOME_SECRETS) write(join(home, f), `${SECRET_MARKER} ${f}\n`);
  for (const f of PROJECT_SECRETS) write(join(project, f), `${SECRET_MARKER} ${f}\n`);
  for (const [f, text] of Object.entries(PROJECT_FILES)) write(join(project, f), text);
  write(join(home, 'config.ts'), `export default { safety: { sandbox: 'required', checkpoints: false }, norris: { maxSteps: 4 } };\n`);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: project, env: { ...process.env, HOME: home } });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'fixture');

  const projectState = (): string => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
    });
    const status = execFileSync('git', ['status', '--porcelain', '--ignored'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, HOME: home },
    });
    const h = createHash('sha256').update(status);
    for (const f of files.split('\n').filter(Boolean).sort()) h.update(f).update(readFileSync(join(project, f)));
    return h.digest('hex');
  };

  const runNorris = (goal: string, env: Record<string, string>, timeoutMs: number): Promise<CliResult> =>
    runAishInJail(['--config', join(home, 'config.ts'), '--norris', goal], {
      root,
      home,
      cwd: project,
      env: { ...env, GITHUB_TOKEN: ENV_MARKER },
      timeoutMs,
      ownUser: true,
    });

  return { root, home, project, projectState, runNorris };
}

export interface StepsRun {
  /** The goal given to `--norris`. */
  goal: string;
  /** Run with `--yes` (the default). */
  yes?: boolean;
  /** Added to the fake server's environment. */
  env?: Record<string, string>;
  /** Replies queued after the one that asks for the steps (a closing `Done.` when not given). */
  then?: Reply[];
  timeoutMs?: number;
}

/**
 * `aish --norris GOAL --yes` in the jail, with config.ts from the jail's home, the model asking for
 * every step in one reply: what each step sent back to the model, in order ('(no result)' when none
 * came). Fails the test when aish did not come back to the model after the steps.
 */
export async function runSteps(jail: Jail, fake: SuiteServer, steps: string[], run: StepsRun): Promise<string[]> {
  const toolCalls = steps.map((c, i) => ({ id: `s${i}`, name: 'run_command', arguments: JSON.stringify({ command: c }) }));
  fake.server.enqueue({ toolCalls }, ...(run.then ?? [{ text: 'Done.' }]));
  const args = ['--config', join(jail.home, 'config.ts'), '--norris', run.goal, ...(run.yes === false ? [] : ['--yes'])];
  const r = await runAishInJail(args, {
    root: jail.root,
    home: jail.home,
    cwd: jail.project,
    env: fake.env(run.env),
    timeoutMs: run.timeoutMs ?? 280_000,
    ownUser: true,
  });
  expect(fake.server.requests.length, r.stderr).toBeGreaterThanOrEqual(2);
  const results = new Map<string, string>();
  for (const m of fake.server.requests[1]!.body.messages)
    if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, String(m.content));
  return steps.map((_c, i) => results.get(`s${i}`) ?? '(no result)');
}
