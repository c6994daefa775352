/**
 * The one interface every tool the model can call implements (run_command, each MCP tool). A tool
 * parses and describes one call — what the user sees, what the gate decides on — and runs it with
 * an AbortSignal. Asking, refusing and showing results is done once, by the caller, for all tools.
 */
import type { ToolSpec } from '../broker/types';
import type { GateSubject } from './gate';
import type { Sandbox } from './sandbox';

export interface ToolRunContext {
  /** aish's directory. */
  cwd: string;
  signal: AbortSignal;
  /** Output as it arrives (tools that stream). */
  onOutput?: (text: string) => void;
  /** Run inside this sandbox (commands only). */
  sandbox?: Sandbox;
  /** Nobody approved this call: it runs in the strictest view (no network, credentials hidden). */
  unasked?: boolean;
  /** Existing files (absolute) the step must not change: the after-the-fact check could not put them back. */
  protect?: string[];
}

interface ToolResult {
  /** The tool message for the model. */
  content: string;
  /** One line shown after `↳` when it ends: `exit code 0`, `ok`, `error`. */
  status: string;
  /** The output as shown to the user (a few lines are previewed). */
  output: string;
}

export interface ToolCall {
  /** Shown as the call starts, after `⏵ `. */
  title: string;
  /** Named in refusals: the command line, or the tool's name. */
  subject: string;
  gate: GateSubject;
  /** Label of the live area its output streams into while it runs; absent: it does not stream. */
  liveLabel?: string;
  run(ctx: ToolRunContext): Promise<ToolResult>;
}

export interface Tool {
  readonly name: string;
  readonly spec: ToolSpec;
  /** Parse the model's JSON arguments and describe the call (`at.cwd`: aish's directory); `error` goes back to the model. */
  prepare(rawArgs: string, at?: { cwd: string }): Promise<ToolCall | { error: string }>;
}
