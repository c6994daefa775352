/** One MCP server tool as a Tool: its schema offered as an OpenAI function, its hints read by the gate. */
import type { ToolSpec } from '../broker/types';
import { neutralizeForPrompt } from '../util/prompt-neutral';
import type { ToolCallOutcome } from './mcp/manager';
import type { McpToolInfo } from './mcp/tool-info';
import { HeadTail } from './shell';
import type { Tool, ToolCall } from './tool';

/** Servers do not cap their output; the model's context needs it capped like run_command's. */
const OUTPUT_LIMIT = 16 * 1024;

export type McpCaller = (name: string, args: unknown, signal: AbortSignal) => Promise<ToolCallOutcome>;

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
    return {
      title: `${info.name} ${rawArgs || '{}'}${info.readOnlyHint ? '  (read-only)' : ''}`,
      subject: info.name,
      gate: { kind: 'mcp', destructive: !info.readOnlyHint && info.destructiveHint !== false, readOnly: info.readOnlyHint === true },
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
