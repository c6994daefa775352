/** `aish mcp --print-config CLIENT`: the snippet that registers `aish mcp` with another agent. */
import { UsageError } from '../../util/errors';

const json = (where: string) =>
  `// ${where}: add "aish" to "mcpServers" (create the file if it is missing)\n` +
  `${JSON.stringify({ mcpServers: { aish: { command: 'aish', args: ['mcp'] } } }, null, 2)}\n`;

const SNIPPETS: Record<string, string> = {
  claude: '# Claude Code: run once (--scope user: in every project)\nclaude mcp add --scope user aish -- aish mcp\n',
  codex:
    '# Codex: add to ~/.codex/config.toml (or .codex/config.toml in a trusted project)\n[mcp_servers.aish]\ncommand = "aish"\nargs = ["mcp"]\n',
  antigravity: json("Antigravity: the project's .agents/mcp_config.json"),
  cursor: json('Cursor: ~/.cursor/mcp.json (every project) or .cursor/mcp.json (this project)'),
};

const MCP_CLIENTS = Object.keys(SNIPPETS);

export function printConfig(client: string): string {
  const s = SNIPPETS[client.toLowerCase()];
  if (s === undefined) throw new UsageError(`no snippet for ${JSON.stringify(client)} — one of ${MCP_CLIENTS.join(', ')}`);
  return s;
}
