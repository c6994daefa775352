/** One MCP server tool as a Tool: its schema offered as an OpenAI function, its hints read by the gate. */
import type { ToolSpec } from '../broker/types';
import { argumentLines } from './argument-lines';
import type { GateSubject } from './gate';
import { neutralizeForPrompt } from '../util/prompt-neutral';
import type { ToolCallOutcome } from './mcp/manager';
import type { McpToolInfo } from './mcp/tool-info';
import { HeadTail } from './shell';
import type { Tool, ToolCall } from './tool';

/** Servers do not cap their output; the model's context needs it capped like run_command's. */
const OUTPUT_LIMIT = 16 * 1024;

export type McpCaller = (name: string, args: unknown, signal: AbortSignal) => Promise<ToolCallOutcome>;

/** The strongest of the user's deny or ask rules that command text among these meets (rules/book.ts argumentRuling). */
export type ArgumentRuling = (texts: readonly string[]) => Promise<GateSubject['rule']>;

const TOO_LARGE = { decision: 'ask', rule: 'asks: its arguments are too large to check against the command rules' } as const;

function mcpToolSpec(t: McpToolInfo): ToolSpec {
  // `$schema` is sent by some servers and rejected by some OpenAI-compatible providers.
  const { $schema: _ignored, ...schema } = t.inputSchema && typeof t.inputSchema === 'object' ? t.inputSchema : {};
  void _ignored;
  return {
    type: 'function',
    function: {
      name: t.name,
      description: `[MCP ${t.server}] ${t.description || neutralizeForPrompt(t.tool)}`.slice(0, 1024),
      parameters: { type: 'object', properties: {}, ...schema },
    },
  };
}

export class McpTool implements Tool {
  readonly name: string;
  readonly spec: ToolSpec;

  constructor(
    readonly info: McpToolInfo,
    private readonly call: McpCaller,
    private readonly ruling?: ArgumentRuling,
  ) {
    this.name = info.name;
    this.spec = mcpToolSpec(info);
  }

  async prepare(rawArgs: string): Promise<ToolCall | { error: string }> {
    let args: unknown;
    try {
      args = JSON.parse(rawArgs || '{}');
    } catch {
      return { error: 'arguments are not valid JSON' };
    }
    const { info } = this;
    let rule: GateSubject['rule'];
    if (this.ruling) {
      const texts = argumentLines(args);
      rule = texts === null ? TOO_LARGE : await this.ruling(texts);
    }
    const ruleNote = rule ? `  (${rule.decision === 'deny' ? '⛔ ' : ''}${rule.rule})` : '';
    return {
      title: `${info.name} ${rawArgs || '{}'}${info.readOnlyHint ? '  (read-only)' : ''}${ruleNote}`,
      subject: info.name,
      gate: {
        kind: 'mcp',
        destructive: !info.readOnlyHint && info.destructiveHint !== false,
        readOnly: info.readOnlyHint === true,
        ...(rule && { rule }),
      },
      run: async (ctx) => {
        const out = await this.call(info.name, args, ctx.signal);
        const cap = new HeadTail(OUTPUT_LIMIT);
        cap.push(out.text);
        // What the server answered goes to the model: neutralised like memory text (tool-info.ts).
        const text = neutralizeForPrompt(cap.text());
        return { content: out.isError ? `Error: ${text}` : text, status: out.isError ? 'error' : 'ok', output: text };
      },
    };
  }
}
