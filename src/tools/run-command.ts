/** The built-in `run_command` tool: bash (what the safety checks read), a timeout, output capped head+tail. */
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { ToolSpec } from '../broker/types';
import type { RuleBook } from './rules/book';
import { realPath } from '../util/paths';
import type { Sandbox, SandboxView } from './sandbox/types';
import { gitConfigView, programsNamed } from './git-view';
import { scanProject, type ProjectScan } from './project-scan';
import { findSecrets, startFiles } from './secret-paths';
import { modelShell, runShell } from './shell';
import { stepEnv } from './step-env';
import type { Tool, ToolCall, ToolRunContext } from './tool';

const RUN_COMMAND = 'run_command';
const TIMEOUT_MS = 120_000;
const OUTPUT_LIMIT = 16 * 1024;

const runCommandSpec: ToolSpec = {
  type: 'function',
  function: {
    name: RUN_COMMAND,
    description:
      'Run a shell command with bash and return its exit code and output (stdout and stderr, the middle cut when long). ' +
      'The user may be asked to approve it first; destructive commands need approval and may be refused.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, as typed in a terminal.' },
        cwd: { type: 'string', description: "Directory to run in; default: aish's current directory." },
      },
      required: ['command'],
      additionalProperties: false,
    },
  },
};

interface RunCommandArgs {
  command: string;
  cwd?: string;
}

/** Arguments as the model sent them, or a message for the model saying what was wrong. */
function parseRunCommandArgs(json: string): RunCommandArgs | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(json || '{}');
  } catch {
    return { error: 'arguments are not valid JSON; send {"command": "…"}' };
  }
  const o = v as Partial<RunCommandArgs>;
  if (typeof o !== 'object' || o === null || typeof o.command !== 'string' || !o.command.trim()) {
    return { error: 'missing "command" (a non-empty string)' };
  }
  if (o.cwd !== undefined && typeof o.cwd !== 'string') return { error: '"cwd" must be a string' };
  return { command: o.command, ...(o.cwd && { cwd: o.cwd }) };
}

interface CommandOutcome {
  /** What the model gets back. */
  text: string;
  exitCode: number | null;
  /** The output as shown to the user. */
  output: string;
}

const within = (path: string, dir: string): boolean => {
  const r = relative(dir, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/**
 * Where the command starts, through symlinks and `..`: the model's cwd (`~` is HOME), else aish's
 * directory; `outside` when that is not inside aish's directory (or cannot be told).
 */
export function startDir(project: string, cwd: string | undefined, home = homedir()): { dir: string; outside: boolean } {
  if (!cwd) return { dir: project, outside: false };
  const named = cwd === '~' ? home : cwd.startsWith('~/') ? join(home, cwd.slice(2)) : cwd;
  const dir = realPath(isAbsolute(named) ? named : resolve(project, named));
  return { dir, outside: !within(dir, realPath(project)) };
}

/** What the step sees when it runs unasked, or in the sandbox after a person said yes. */
export interface StepPlaces {
  /** safety.passEnv. */
  passEnv: readonly string[];
  /** aish's own config file and data directory, hidden like the other credential stores. */
  aishFiles: readonly string[];
}

async function sandboxView(
  sandbox: Sandbox,
  project: string,
  readOnly: boolean,
  unasked: boolean,
  places: StepPlaces,
  protect: readonly string[],
): Promise<{ view: SandboxView; done: () => void; scan?: ProjectScan }> {
  if (!unasked) return { view: { writable: project, network: sandbox.network, hidden: { dirs: [], files: [] } }, done: () => {} };
  const home = homedir();
  // A step proven read-only gets nothing writable. aish started in ~ (or above it): HOME's
  // start-up files stay read-only, or a step could leave behind what runs outside the sandbox.
  const writable = readOnly ? null : project;
  const scan = await scanProject(project);
  const [hidden, keep, git] = await Promise.all([
    findSecrets({
      home,
      ...(process.env.XDG_CONFIG_HOME && { configHome: process.env.XDG_CONFIG_HOME }),
      project,
      extra: [...places.aishFiles, ...scan.secrets],
    }),
    writable && within(realPath(home), realPath(project)) ? startFiles(home) : Promise.resolve([]),
    gitConfigView(scan.gitConfigs.map(realPath)),
  ]);
  const view: SandboxView = { writable, project, network: false, hidden };
  // What the after-the-fact check could not put back (files over the checkpoint's cap) stays as it is.
  if (keep.length || protect.length) view.readOnly = [...keep, ...(writable ? protect : [])];
  if (git.binds.length) view.replaced = git.binds;
  return { view, done: git.done, scan };
}

async function runCommand(
  args: RunCommandArgs,
  ctx: ToolRunContext,
  checked: { readOnly: boolean; outside: boolean },
  places: StepPlaces,
): Promise<CommandOutcome> {
  const { readOnly, outside: seenOutside } = checked;
  const { signal, onOutput, sandbox } = ctx;
  const unasked = ctx.unasked ?? false;
  const { dir, outside } = startDir(ctx.cwd, args.cwd);
  // Looked at again: a symlink may have changed since the gate saw the call.
  if (outside && !seenOutside) {
    const text = `not run: ${args.cwd} is now outside ${ctx.cwd} (it changed after the safety check)`;
    return { text, exitCode: null, output: text };
  }
  // Unasked with no sandbox (sandbox off, or none here): the configuration view that keeps git from
  // starting drivers and filters named in a repository's config cannot be put in place, so such a
  // repository's git does not run unasked.
  if (unasked && !sandbox && /\bgit\b/.test(args.command)) {
    // `git -C DIR` or `cd DIR` outside the project reaches a repository the scan below does not see.
    const bareCd = /(?:^|[;&|(]\s*)cd\s*(?:$|[;&|)])/.test(args.command);
    const away =
      bareCd ||
      [...args.command.matchAll(/(?:(?:^|\s)-C\s*|(?:^|[;&|(]\s*)cd\s+)([^\s;&|)]+)/g)].some((m) => {
        const named = m[1]!.replace(/^['"]|['"]$/g, '');
        return startDir(ctx.cwd, named.startsWith('~') ? named : resolve(dir, named)).outside;
      });
    const named = away
      ? ['a repository outside the project (git -C, cd)']
      : await programsNamed((await scanProject(ctx.cwd)).gitConfigs.map(realPath));
    if (named.length) {
      const text = `not run: git here would start programs named in repository configuration (${named.slice(0, 2).join(', ')}) and no sandbox is in use — ask the user to run it`;
      return { text, exitCode: null, output: text };
    }
  }
  const seen = sandbox && (await sandboxView(sandbox, ctx.cwd, readOnly, unasked, places, ctx.protect ?? []));
  // Unasked: judged by what it printed too (secret-output.ts). Unsandboxed, against every store;
  // in the sandbox, against the project's `.env` files and keys it hid, which git can still print
  // from its objects (`git show HEAD:.env`, `git log -p`) when they were ever committed.
  // Loaded only for such a step: the REPL's start does not need it.
  const inSandbox = seen?.scan;
  const check = unasked && (!sandbox || inSandbox?.secrets.length) ? await import('./secret-output') : null;
  const secrets = check
    ? await check.gatherSecretValues({
        project: ctx.cwd,
        aishFiles: places.aishFiles,
        env: process.env,
        ...(inSandbox && { only: inSandbox.secrets }),
      })
    : null;
  let r;
  try {
    r = await runShell(args.command, {
      cwd: dir,
      signal,
      timeoutMs: TIMEOUT_MS,
      captureLimit: OUTPUT_LIMIT,
      env: stepEnv(process.env, { passEnv: places.passEnv, unasked }),
      ...(onOutput && { onOutput }),
      ...(sandbox && seen && { sandbox, view: seen.view }),
      ...(unasked && !sandbox && { reap: true }),
      shell: modelShell(),
    });
  } finally {
    seen?.done();
  }
  const status = r.timedOut
    ? `timed out after ${TIMEOUT_MS / 1000} s and was stopped`
    : signal.aborted
      ? 'cancelled by the user'
      : r.signal
        ? `killed by ${r.signal}`
        : `exit code ${r.exitCode}`;
  const note = r.omitted ? `\n[${r.omitted} characters of output omitted from the middle]` : '';
  const leaked = check && secrets && check.leakedFrom(secrets, r.output);
  if (leaked) {
    const text = `${status}\n[output withheld: it holds what ${leaked} holds (credentials); aish does not send credentials to the model. Do not try to read them another way.]`;
    return { text, exitCode: r.exitCode, output: r.output };
  }
  return { text: `${status}\n${r.output}${note}`.trimEnd(), exitCode: r.exitCode, output: r.output };
}

/** run_command as a Tool: classified by the shell-safety rules before the gate sees it. */
export class RunCommandTool implements Tool {
  readonly name = RUN_COMMAND;
  readonly spec = runCommandSpec;

  constructor(
    private readonly extraPatterns: ReadonlyArray<string | RegExp> = [],
    private readonly places: StepPlaces = { passEnv: [], aishFiles: [] },
    private readonly rules?: RuleBook,
  ) {}

  async prepare(rawArgs: string, at: { cwd: string } = { cwd: process.cwd() }): Promise<ToolCall | { error: string }> {
    const args = parseRunCommandArgs(rawArgs);
    if ('error' in args) return args;
    // The shell-safety rules (and their parser) load with the first call, not at start-up.
    const [{ classifyCommand }, { allowlistVerdict }] = await Promise.all([import('./safety/classify'), import('./safety/allowlist')]);
    const verdict = await classifyCommand(args.command, { extraPatterns: [...this.extraPatterns] });
    // A cwd outside aish's directory is not what the allowlist vouched for: never "safe" there,
    // and never run unasked (the gate asks; an allow rule does not reach that far either).
    const { outside } = startDir(at.cwd, args.cwd);
    const safe = !verdict.destructive && !outside && (await allowlistVerdict(args.command)).safe;
    const ruling = await this.rules?.gateRuling(args.command, outside);
    const warning = verdict.destructive ? `  ⚠ destructive: ${verdict.reasons.join(', ') || 'unrecognised command'}` : '';
    const away = outside ? `  ⚠ outside ${at.cwd}` : '';
    const ruleNote = ruling?.rule ? `  (${ruling.rule.decision === 'deny' ? '⛔ ' : ''}${ruling.rule.rule})` : '';
    return {
      title: `run_command: ${args.command}${args.cwd ? `  (in ${args.cwd})` : ''}${warning}${away}${ruleNote}`,
      subject: args.command,
      gate: {
        kind: 'command',
        destructive: verdict.destructive,
        safe,
        ...(outside && { outside }),
        reasons: verdict.reasons,
        ...(verdict.secrets && { secrets: true }),
        // "always" remembers one simple command exactly, never a wider rule from a compound line.
        ...(this.rules ? ruling?.alwaysKey !== undefined && { alwaysKey: ruling.alwaysKey } : { alwaysKey: args.command }),
        ...(ruling?.rule && { rule: ruling.rule }),
      },
      liveLabel: args.command,
      run: async (ctx) => {
        const r = await runCommand(args, ctx, { readOnly: safe, outside }, this.places);
        return { content: r.text, status: r.text.split('\n', 1)[0] ?? '', output: r.output };
      },
    };
  }
}
