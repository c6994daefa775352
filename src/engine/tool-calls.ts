/**
 * Executes the model's tool calls through the safety gate (gate.ts): classify, decide, maybe ask,
 * run, and show each call as it happens (the command, its exit code, a few lines of output). The
 * result — output, a denial, a refusal — is what goes back to the model.
 */
import type { ToolCall } from '../broker/types';
import { decide, parseAnswer, type GateMode } from '../tools/gate';
import { RUN_COMMAND, parseRunCommandArgs, runCommand } from '../tools/run-command';
import { classifyCommand } from '../tools/safety';
import type { Engine } from './engine';

export interface ToolRunContext {
  mode: GateMode;
  /** --yes (Norris): destructive steps run without asking. */
  yes: boolean;
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

function preview(output: string): string {
  const lines = output.replace(/\n$/, '').split('\n').filter((l, i, a) => l || i < a.length - 1);
  if (!lines.length || (lines.length === 1 && !lines[0])) return '';
  const shown = lines.slice(0, PREVIEW_LINES).map((l) => `    ${l.length > 200 ? l.slice(0, 200) + '…' : l}`);
  if (lines.length > PREVIEW_LINES) shown.push(`    … ${lines.length - PREVIEW_LINES} more line${lines.length - PREVIEW_LINES === 1 ? '' : 's'}`);
  return '\n' + shown.join('\n');
}

/** Ask, and tell "nobody could answer" (null) apart from "no". */
async function ask(engine: Engine, question: string, offerAlways: boolean): Promise<'yes' | 'always' | 'no' | 'nobody'> {
  const raw = await engine.host.ask(question);
  return raw === null ? 'nobody' : parseAnswer(raw, offerAlways);
}

const refusedText = (what: string, why: string) =>
  `Not run: ${what} ${why}, and there was no one to confirm it (no terminal${why.includes('destructive') ? '; aish --norris runs destructive steps only with --yes' : ''}). Try a safer way, or stop and explain.`;

export async function executeToolCall(engine: Engine, call: ToolCall, ctx: ToolRunContext): Promise<ToolCallResult> {
  const host = engine.host;
  const name = call.function.name;
  const ok = (content: string): ToolCallResult => ({ content, refused: false, denied: false });

  if (name === RUN_COMMAND) {
    const args = parseRunCommandArgs(call.function.arguments);
    if ('error' in args) {
      host.print({ kind: 'tool', text: `⏵ run_command: invalid arguments (${args.error})` });
      return ok(`Error: ${args.error}`);
    }
    const verdict = await classifyCommand(args.command, { extraPatterns: engine.config.safety.extraDestructivePatterns });
    const warning = verdict.destructive ? `  ⚠ destructive: ${verdict.reasons.join(', ') || 'unrecognised command'}` : '';
    host.print({ kind: 'tool', text: `⏵ run_command: ${args.command}${args.cwd ? `  (in ${args.cwd})` : ''}${warning}` });
    const decision = decide({
      mode: ctx.mode,
      kind: 'command',
      destructive: verdict.destructive,
      confirmCommands: engine.config.safety.confirmCommands,
      yes: ctx.yes,
      alwaysAllowed: engine.isAlwaysAllowed(args.command),
    });
    if (decision.action === 'ask') {
      const a = await ask(engine, decision.offerAlways ? 'run? [y/N/always] ' : 'run? [y/N] ', decision.offerAlways);
      if (a === 'nobody') {
        host.print({ kind: 'warn', text: `refused: ${args.command} (${verdict.destructive ? 'destructive' : 'needs confirmation'}; no one to confirm)` });
        return { content: refusedText('this command', verdict.destructive ? `is destructive (${verdict.reasons.join(', ')})` : 'needs confirmation'), refused: true, denied: false };
      }
      if (a === 'no') {
        host.print({ kind: 'info', text: '  ↳ not run (declined)' });
        return { content: 'The user declined to run this command.', refused: false, denied: true };
      }
      if (a === 'always') engine.allowAlways(args.command);
    } else if (decision.action === 'refuse') {
      return { content: `Not run: ${decision.reason}`, refused: true, denied: false };
    }
    host.liveStart('tool', args.command);
    let r;
    try {
      r = await runCommand(args, engine.cwd, ctx.signal, (t) => host.liveText(t));
    } finally {
      host.liveEnd();
    }
    host.print({ kind: 'tool', text: `  ↳ ${r.text.split('\n', 1)[0]}${preview(r.output)}` });
    return ok(r.text);
  }

  const mcp = engine.mcpTool(name);
  if (!mcp) {
    host.print({ kind: 'tool', text: `⏵ ${name}: no such tool` });
    return ok(`Error: there is no tool named ${name}. Available: ${engine.toolSpecs().map((t) => t.function.name).join(', ')}`);
  }
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    return ok('Error: arguments are not valid JSON');
  }
  const destructive = !mcp.readOnlyHint && mcp.destructiveHint !== false;
  host.print({ kind: 'tool', text: `⏵ ${name} ${call.function.arguments || '{}'}${mcp.readOnlyHint ? '  (read-only)' : ''}` });
  const decision = decide({ mode: ctx.mode, kind: 'mcp', destructive, readOnly: mcp.readOnlyHint === true, confirmCommands: true, yes: ctx.yes, alwaysAllowed: false });
  if (decision.action === 'ask') {
    const a = await ask(engine, `call ${name}? [y/N] `, false);
    if (a === 'nobody') {
      host.print({ kind: 'warn', text: `refused: ${name} (needs confirmation; no one to confirm)` });
      return { content: refusedText('this tool call', destructive ? 'may be destructive' : 'needs confirmation'), refused: true, denied: false };
    }
    if (a !== 'yes') {
      host.print({ kind: 'info', text: '  ↳ not called (declined)' });
      return { content: 'The user declined this tool call.', refused: false, denied: true };
    }
  }
  const out = await engine.callMcp(name, args, ctx.signal);
  host.print({ kind: 'tool', text: `  ↳ ${out.isError ? 'error' : 'ok'}${preview(out.text)}` });
  return ok(out.isError ? `Error: ${out.text}` : out.text);
}
