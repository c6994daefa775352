/** :tools — the tools the model can call, and each MCP server's state. */
import { exampleConfigHint } from '../config/example';
import { command, rows } from './types';

export const toolsCommand = command({
  needs: ['tools', 'guards'],
  name: 'tools',
  summary: 'tools offered to the model and MCP server status',
  run: async ({ tools, guards }) => {
    const lines = [
      'run_command          run a shell command (asks first; destructive commands always ask)',
      `  Norris: steps that run unasked (read-only ones too) run in the sandbox; ${(await guards.describe(false)).replace(/^no sandbox: steps that are not read-only /, 'no sandbox, so only read-only steps run and the rest ')}`,
    ];
    if (tools.tools().some((t) => t.name === 'memory_search')) {
      lines.push('memory_search        search your memory for relevant items (read-only, runs unasked)');
      lines.push('memory_remember      save an item to your memory (asks "remember? [y/N]" every time; refused with no terminal)');
    } else lines.push('memory tools         off (--no-memory or memory: false)');
    const statuses = tools.statuses();
    if (statuses.length === 0) lines.push(`no MCP servers configured (mcp.servers in the config; ${exampleConfigHint()})`);
    for (const s of statuses) {
      const state =
        s.state === 'failed'
          ? `failed: ${s.error ?? '?'}`
          : s.state === 'ready'
            ? `ready, ${s.tools} tool${s.tools === 1 ? '' : 's'}${s.note ? ` (${s.note})` : ''}`
            : s.state;
      lines.push(`MCP ${s.name}: ${state}`);
      if (s.state !== 'ready') continue;
      for (const t of tools.serverTools().filter((t) => t.server === s.name)) {
        const flag = t.readOnlyHint ? ' (read-only)' : '';
        lines.push(`  ${t.name.padEnd(28)} ${(t.description || '').split('\n')[0]!.slice(0, 80)}${flag}`);
      }
    }
    return { output: [rows(lines.join('\n'))] };
  },
});
