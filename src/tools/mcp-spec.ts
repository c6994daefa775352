/** An MCP tool as an OpenAI function tool. */
import type { ToolSpec } from '../broker/types';
import type { McpToolInfo } from './mcp/manager';

export function mcpToolSpec(t: McpToolInfo): ToolSpec {
  // `$schema` is sent by some servers and rejected by some OpenAI-compatible providers.
  const { $schema: _ignored, ...schema } = t.inputSchema && typeof t.inputSchema === 'object' ? t.inputSchema : {};
  void _ignored;
  return {
    type: 'function',
    function: {
      name: t.name,
      description: `[MCP ${t.server}] ${t.description || t.tool}`.slice(0, 1024),
      parameters: { type: 'object', properties: {}, ...schema },
    },
  };
}
