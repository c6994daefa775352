/** The MCP SDK's own client, talking to the built `aish mcp` over stdio; closed when the test ends. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { onTestFinished } from 'vitest';
import { BIN } from './paths';
import { isolatedEnv } from './run-cli';

/** `args`: aish's options before `mcp` (e.g. `--config`, `--data-dir`). */
export async function connectMcp(home: string, args: readonly string[], cwd: string, name = 'test-agent'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args, 'mcp'],
    env: isolatedEnv(home) as Record<string, string>,
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text: string }>;
  return { text: content.map((c) => c.text).join('\n'), isError: r.isError === true };
}
