/** The built-in `run_command` tool: bash (what the safety checks read), a timeout, output capped head+tail. */
import { isAbsolute, resolve } from 'node:path';
import type { ToolSpec } from '../broker/types';
import type { RuleBook } from './rules/book';
import type { Sandbox } from './sandbox';
import { modelShell, runShell } from './shell';
import type { Tool, ToolCall } from './tool';

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

async function runCommand(
  args: RunCommandArgs,
  baseCwd: string,
  signal: AbortSignal,
  onOutput?: (t: string) => void,
  sandbox?: Sandbox,
): Promise<CommandOutcome> {
  const cwd = args.cwd ? (isAbsolute(args.cwd) ? args.cwd : resolve(baseCwd, args.cwd)) : baseCwd;
  const r = await runShell(args.command, {
    cwd,
    signal,
    timeoutMs: TIMEOUT_MS,
    captureLimit: OUTPUT_LIMIT,
    ...(onOutput && { onOutput }),
    ...(sandbox && { sandbox }),
    shell: modelShell(),
  });
  const status = r.timedOut
    ? `timed out after ${TIMEOUT_MS / 1000} s and was stopped`
    : signal.aborted
      ? 'cancelled by the user'
      : r.signal
        ? `killed by ${r.signal}`
        : `exit code ${r.exitCode}`;
  const note = r.omitted ? `\n[${r.omitted} characters of output omitted from the middle]` : '';
  return { text: `${status}\n${r.output}${note}`.trimEnd(), exitCode: r.exitCode, output: r.output };
}

/** run_command as a Tool: classified by the shell-safety rules before the gate sees it. */
export class RunCommandTool implements Tool {
  readonly name = RUN_COMMAND;
  readonly spec = runCommandSpec;

  constructor(
    private readonly extraPatterns: ReadonlyArray<string | RegExp> = [],
    private readonly rules?: RuleBook,
  ) {}

  async prepare(rawArgs: string): Promise<ToolCall | { error: string }> {
    const args = parseRunCommandArgs(rawArgs);
    if ('error' in args) return args;
    // The shell-safety rules (and their parser) load with the first call, not at start-up.
    const [{ classifyCommand }, { allowlistVerdict }] = await Promise.all([import('./safety/classify'), import('./safety/allowlist')]);
    const verdict = await classifyCommand(args.command, { extraPatterns: [...this.extraPatterns] });
    // A cwd outside aish's directory is not what the allowlist vouched for: never "safe" then.
    const safe = !verdict.destructive && !args.cwd && (await allowlistVerdict(args.command)).safe;
    const ruling = await this.rules?.gateRuling(args.command, args.cwd !== undefined);
    const warning = verdict.destructive ? `  ⚠ destructive: ${verdict.reasons.join(', ') || 'unrecognised command'}` : '';
    const ruleNote = ruling?.rule ? `  (${ruling.rule.decision === 'deny' ? '⛔ ' : ''}${ruling.rule.rule})` : '';
    return {
      title: `run_command: ${args.command}${args.cwd ? `  (in ${args.cwd})` : ''}${warning}${ruleNote}`,
      subject: args.command,
      gate: {
        kind: 'command',
        destructive: verdict.destructive,
        safe,
        reasons: verdict.reasons,
        // "always" remembers one simple command exactly, never a wider rule from a compound line.
        ...(this.rules ? ruling?.alwaysKey !== undefined && { alwaysKey: ruling.alwaysKey } : { alwaysKey: args.command }),
        ...(ruling?.rule && { rule: ruling.rule }),
      },
      liveLabel: args.command,
      run: async (ctx) => {
        const r = await runCommand(args, ctx.cwd, ctx.signal, ctx.onOutput, ctx.sandbox);
        return { content: r.text, status: r.text.split('\n', 1)[0] ?? '', output: r.output };
      },
    };
  }
}
