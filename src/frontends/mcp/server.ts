/**
 * `aish mcp`: the user's memory as an MCP server over stdio, for other agents (Claude Code, Codex,
 * Antigravity, Cursor). stdout is the protocol: everything for people goes to stderr.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../../package.json';
import type { Setup } from '../../config/setup';
import { formatError } from '../../util/errors';
import { oneLine } from '../../util/text';
import { LineTransport } from './line-transport';
import { cut, MemoryTools, ToolError } from './memory-tools';
import { READ_TOOLS, WRITE_TOOLS } from './tool-schemas';

/** A call that takes longer is answered with an error (the work may still finish; a write stays whole). */
const CALL_TIMEOUT_MS = 10_000;

const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

export async function runMcpServer(s: Setup): Promise<void> {
  const server = new Server(
    { name: 'aish-memory', version },
    {
      capabilities: { tools: {} },
      instructions:
        "The user's own memory (aish). Call memory_recall with the user's request at the start of a task. Propose durable facts and preferences with memory_propose; the user reviews them before they are used.",
    },
  );
  // The handshake's name, one short line: it is shown to the user in review.
  const client = () => oneLine(server.getClientVersion()?.name ?? '', 60).trim() || 'unknown';
  const warn = (t: string) => process.stderr.write(`aish mcp: warning: ${t}\n`);
  const tools = new MemoryTools(s, client, warn);
  const offered = () => (tools.mode === 'off' ? [] : [...READ_TOOLS, ...WRITE_TOOLS]);
  const run: Record<string, (a: Record<string, unknown>) => string | Promise<string>> = {
    memory_recall: (a) => tools.recall(a),
    memory_search: (a) => tools.search(a),
    memory_list: (a) => tools.list(a),
    memory_propose: (a) => tools.propose(a),
    memory_forget_request: (a) => tools.forgetRequest(a),
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered() }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const name = req.params.name;
    const fn = run[name];
    if (!offered().some((t) => t.name === name) || !fn)
      return fail(
        tools.mode === 'off' ? 'memory.agents is "off" in the user\'s aish config: no memory tools' : `no tool ${oneLine(name, 60)}`,
      );
    let timer: NodeJS.Timeout | undefined;
    try {
      const text = await Promise.race([
        Promise.resolve().then(() => fn(req.params.arguments ?? {})),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ToolError(`no answer within ${CALL_TIMEOUT_MS / 1000} s — try again`)), CALL_TIMEOUT_MS);
        }),
      ]);
      return { content: [{ type: 'text', text: cut(text) }] };
    } catch (err) {
      return fail(cut(err instanceof ToolError ? err.message : oneLine(formatError(err), 500)));
    } finally {
      clearTimeout(timer);
    }
  });

  const transport = new LineTransport(process.stdin, process.stdout, warn);
  // Ends when stdin has ended and every request read is answered, or when stdout is gone.
  const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
  // SIGTERM or a hang-up mid-call: read nothing more, let the calls under way finish (each write
  // whole, its lock released; at most CALL_TIMEOUT_MS), then exit with the signal's status.
  // A second signal ends it at once. (`on`, not `once`: the lock library re-sends a signal nobody
  // else listens to, and a `once` handler is no longer listening by then.)
  let signalled = 0;
  const onSignal = (sig: 'SIGTERM' | 'SIGHUP' | 'SIGINT') => () => {
    if (signalled) process.exit(signalled);
    signalled = 128 + (sig === 'SIGHUP' ? 1 : sig === 'SIGINT' ? 2 : 15);
    transport.stop();
  };
  const handlers = (['SIGTERM', 'SIGHUP', 'SIGINT'] as const).map((sig) => [sig, onSignal(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  await server.connect(transport);
  await closed;
  for (const [sig, h] of handlers) process.removeListener(sig, h);
  tools.close();
  await server.close().catch(() => {});
  // The CLI sets the exit code from the action's result later; the signal's status wins.
  if (signalled) process.once('exit', () => (process.exitCode = signalled));
}
