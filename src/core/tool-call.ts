/**
 * A tool call from the model, through the safety gate, the same way for every tool: describe it,
 * decide, ask when the gate says so, run, and show it as it happens (`⏵ …`, then `↳` with the
 * status and a few lines of output). What goes back to the model — output, a denial, a refusal —
 * is the result.
 */
import type { ToolCall as ModelToolCall } from '../broker/types';
import { decide, parseAnswer, type GatePolicy, type GateSubject } from '../tools/gate';
import type { Sandbox } from '../tools/sandbox';
import type { Toolbox } from '../tools/toolbox';
import type { StepJudge } from '../checkpoints/step-watch';
import { afterStep } from './after-step';
import type { EngineHost } from './host';

export interface ToolCallContext extends Pick<GatePolicy, 'mode' | 'confirmCommands' | 'yes' | 'sandboxRequired'> {
  host: EngineHost;
  toolbox: Pick<Toolbox, 'find' | 'tools' | 'isAlwaysAllowed' | 'allowAlways'>;
  cwd: string;
  /** The sandbox for commands that run on their own; null when there is none. */
  sandbox: Sandbox | null;
  /** Snapshot the working tree before a step that may write (absent: checkpoints are off); false: it failed. */
  checkpoint?: (label: string) => Promise<boolean | void>;
  /**
   * Snapshot before a step nobody approved, to judge it after (after-step.ts); `unsandboxed`: it
   * can write outside the project too. Null: not here; false: it failed.
   */
  watch?: (label: string, unsandboxed: boolean) => Promise<StepJudge | null | false>;
  signal: AbortSignal;
}

export interface ToolCallResult {
  /** The tool message content for the model. */
  content: string;
  /** The gate refused it (nobody could confirm). */
  refused: boolean;
  /** The user said no. */
  denied: boolean;
}

const PREVIEW_LINES = 5;

/** How the two kinds of tool are named in questions and refusals. */
const WORDS = {
  command: { noun: 'this command', notDone: 'not run', declined: 'The user declined to run this command.' },
  mcp: { noun: 'this tool call', notDone: 'not called', declined: 'The user declined this tool call.' },
  memory: { noun: 'saving to memory', notDone: 'not remembered', declined: 'The user declined to remember this.' },
} as const;

function preview(output: string): string {
  const lines = output
    .replace(/\n$/, '')
    .split('\n')
    .filter((l, i, a) => l || i < a.length - 1);
  if (!lines.length || (lines.length === 1 && !lines[0])) return '';
  const shown = lines.slice(0, PREVIEW_LINES).map((l) => `    ${l.length > 200 ? l.slice(0, 200) + '…' : l}`);
  if (lines.length > PREVIEW_LINES)
    shown.push(`    … ${lines.length - PREVIEW_LINES} more line${lines.length - PREVIEW_LINES === 1 ? '' : 's'}`);
  return '\n' + shown.join('\n');
}

function question(name: string, gate: GateSubject, offerAlways: boolean): string {
  if (gate.kind === 'mcp') return `call ${name}? [y/N] `;
  if (gate.kind === 'memory') return 'remember? [y/N] ';
  return offerAlways ? 'run? [y/N/always] ' : 'run? [y/N] ';
}

function refusal(gate: GateSubject): { shown: string; forModel: string } {
  if (gate.kind === 'memory') {
    return {
      shown: 'needs confirmation',
      forModel: "Not remembered: saving to memory needs the user's confirmation, and there was no one to confirm it (no terminal).",
    };
  }
  if (gate.rule) {
    return {
      shown: `rule: ${gate.rule.rule}`,
      forModel: `Not run: the user's command rules ask before this (${gate.rule.rule}), and there was no one to confirm it (no terminal). Try another way, or stop and explain.`,
    };
  }
  const why = gate.destructive
    ? gate.kind === 'command'
      ? `is destructive (${(gate.reasons ?? []).join(', ')})`
      : 'may be destructive'
    : 'needs confirmation';
  const hint = gate.destructive ? '; aish --norris runs destructive steps only with --yes' : '';
  return {
    shown: gate.kind === 'command' && gate.destructive ? 'destructive' : 'needs confirmation',
    forModel: `Not run: ${WORDS[gate.kind].noun} ${why}, and there was no one to confirm it (no terminal${hint}). Try a safer way, or stop and explain.`,
  };
}

export async function executeToolCall(call: ModelToolCall, ctx: ToolCallContext): Promise<ToolCallResult> {
  const { host, toolbox } = ctx;
  const name = call.function.name;
  const ok = (content: string): ToolCallResult => ({ content, refused: false, denied: false });

  const tool = toolbox.find(name);
  if (!tool) {
    host.print({ kind: 'tool', text: `⏵ ${name}: no such tool` });
    return ok(
      `Error: there is no tool named ${name}. Available: ${toolbox
        .tools()
        .map((t) => t.name)
        .join(', ')}`,
    );
  }
  const prepared = await tool.prepare(call.function.arguments, { cwd: ctx.cwd });
  if ('error' in prepared) {
    host.print({ kind: 'tool', text: `⏵ ${name}: invalid arguments (${prepared.error})` });
    return ok(`Error: ${prepared.error}`);
  }
  const { gate } = prepared;
  host.print({ kind: 'tool', text: `⏵ ${prepared.title}` });
  const decision = decide(gate, {
    mode: ctx.mode,
    confirmCommands: ctx.confirmCommands,
    yes: ctx.yes,
    alwaysAllowed: gate.alwaysKey !== undefined && toolbox.isAlwaysAllowed(gate.alwaysKey),
    sandbox: ctx.sandbox !== null,
    sandboxRequired: ctx.sandboxRequired,
  });
  if (decision.action === 'refuse') {
    host.print({ kind: 'warn', text: `refused: ${prepared.subject} (${decision.reason})` });
    const denied = gate.rule?.decision === 'deny';
    return {
      content: denied
        ? `Not run: ${decision.reason}, one of the user's command rules. Do not run it another way; do something else, or stop and explain.`
        : `Not run: ${decision.reason}. Only read-only commands can run; try one, or stop and explain.`,
      refused: true,
      denied: false,
    };
  }
  if (decision.action === 'ask') {
    // With nobody to answer, nothing is asked (no question printed): it is refused.
    const raw = host.canAsk === false ? null : await host.ask(question(name, gate, decision.offerAlways));
    if (raw === null) {
      const r = refusal(gate);
      host.print({ kind: 'warn', text: `refused: ${prepared.subject} (${r.shown}; no one to confirm)` });
      return { content: r.forModel, refused: true, denied: false };
    }
    const answer = parseAnswer(raw, decision.offerAlways);
    if (answer === 'no') {
      host.print({ kind: 'info', text: `  ↳ ${WORDS[gate.kind].notDone} (declined)` });
      return { content: WORDS[gate.kind].declined, refused: false, denied: true };
    }
    if (answer === 'always' && gate.alwaysKey !== undefined) toolbox.allowAlways(gate.alwaysKey);
  }

  // Nobody said yes to this exact call: the strictest view, and no write without a checkpoint.
  const unasked = decision.action === 'run' && !decision.approved;
  const mayWrite = !gate.safe && !gate.readOnly && gate.kind !== 'memory';
  // Judged by what it did: every step nobody approved, except a destructive one --yes let through.
  const judged = mayWrite && unasked && !(gate.destructive && ctx.yes) && ctx.watch;
  const watch = judged ? await ctx.watch!(prepared.subject, !(decision.sandboxed && ctx.sandbox)) : null;
  const taken = judged ? watch !== false : !mayWrite || (await ctx.checkpoint?.(prepared.subject)) !== false;
  if (!taken && unasked) {
    const reason = 'no checkpoint could be taken before it, so :restore could not undo it';
    host.print({ kind: 'warn', text: `refused: ${prepared.subject} (${reason})` });
    return { content: `Not run: ${reason}. Only read-only commands can run now; stop and explain.`, refused: true, denied: false };
  }
  const sandbox = decision.sandboxed ? ctx.sandbox : null;
  if (gate.kind === 'command' && !gate.safe && !sandbox && ctx.mode === 'norris') host.print({ kind: 'info', text: '  (not sandboxed)' });
  const live = prepared.liveLabel !== undefined;
  if (live) host.liveStart('tool', prepared.liveLabel);
  let r;
  try {
    r = await prepared.run({
      cwd: ctx.cwd,
      signal: ctx.signal,
      ...(sandbox && { sandbox }),
      ...(unasked && { unasked }),
      ...(watch && { protect: watch.unrestorable() }),
      ...(live && { onOutput: (t: string) => host.liveText(t) }),
    });
  } finally {
    if (live) host.liveEnd();
  }
  host.print({ kind: 'tool', text: `  ↳ ${r.status}${preview(r.output)}` });
  if (!watch) return ok(r.content);
  const after = await afterStep(watch, { host, yes: ctx.yes, output: r.content });
  return after.content === null ? ok(r.content) : { content: after.content, refused: after.refused, denied: after.denied };
}
