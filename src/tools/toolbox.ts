/**
 * The tools a session offers the model: run_command and every tool of the configured MCP servers
 * (started in the background; a model call waits a moment for servers still starting), plus the
 * session's "always" answers. Owns the MCP servers' lifecycle: close() ends them.
 */
import type { ToolSpec } from '../broker/types';
import type { AishConfig } from '../config/types';
import { formatError } from '../util/errors';
import type { McpManager, ServerStatus } from './mcp/manager';
import type { McpToolInfo } from './mcp/tool-info';
import type { MemorySession } from '../memory/session';
import { McpTool } from './mcp-tool';
import { MemoryRememberTool, MemorySearchTool } from './memory-tools';
import { RuleBook } from './rules/book';
import { projectNote } from './rules/report';
import { RunCommandTool } from './run-command';
import type { Tool } from './tool';

/** How long a model call waits for MCP servers that are still starting. */
const MCP_WAIT_MS = 5000;

export interface ToolboxEvents {
  warn(text: string): void;
  /** A server's state or tool list changed. */
  changed(): void;
}

export class Toolbox {
  private mcp: McpManager | null = null;
  private mcpStarting: Promise<void> = Promise.resolve();
  private readonly alwaysAllowed = new Set<string>();
  private readonly runCommand: RunCommandTool;
  /** The command rules in force: config, trusted project file, this session's "always" answers. */
  readonly rules: RuleBook;
  private readonly mcpTools = new WeakMap<McpToolInfo, McpTool>();
  /** memory_search and memory_remember, when memory is on for this session. */
  private readonly memoryTools: Tool[];

  constructor(
    private readonly config: AishConfig,
    private readonly dirs: { logDir: string; baseDir: string; dataDir?: string; aishFiles?: string[] },
    private readonly events: ToolboxEvents,
    memory?: MemorySession,
  ) {
    this.rules = new RuleBook(() => config.safety.rules, dirs.dataDir ?? null);
    this.runCommand = new RunCommandTool(
      config.safety.extraDestructivePatterns,
      { passEnv: config.safety.passEnv, aishFiles: dirs.aishFiles ?? [] },
      this.rules,
    );
    this.memoryTools = memory?.injecting ? [new MemorySearchTool(memory), new MemoryRememberTool(memory)] : [];
  }

  /** Start the MCP servers in the background; failures are reported once each and skipped. */
  start(): void {
    this.noteUntrustedRules();
    this.mcpStarting = this.startMcp().catch((err: unknown) => this.events.warn(`MCP servers not started: ${formatError(err)}`));
  }

  /** run_command, the memory tools, then the tools of ready MCP servers. */
  tools(): Tool[] {
    return [this.runCommand, ...this.memoryTools, ...this.serverTools().map((info) => this.mcpTool(info))];
  }

  specs(): ToolSpec[] {
    return this.tools().map((t) => t.spec);
  }

  /** Like specs(), but gives MCP servers still starting a moment to come up first. */
  async specsReady(): Promise<ToolSpec[]> {
    await this.mcpStarting;
    if (this.mcp) await this.mcp.settled(MCP_WAIT_MS);
    return this.specs();
  }

  find(name: string): Tool | undefined {
    return this.tools().find((t) => t.name === name);
  }

  /** The ready servers' tools, as the servers describe them. */
  serverTools(): McpToolInfo[] {
    return this.mcp?.tools() ?? [];
  }

  /** Each configured server's state; before the manager has loaded, every enabled one is starting. */
  statuses(): ServerStatus[] {
    if (this.mcp) return this.mcp.statuses();
    return Object.entries(this.config.mcp.servers).map(([name, c]) => ({
      name,
      state: c.disabled ? 'disabled' : 'starting',
      tools: 0,
      logPath: '',
    }));
  }

  isAlwaysAllowed(key: string): boolean {
    return this.alwaysAllowed.has(key);
  }

  /** "always" for this exact simple command, for the rest of the session (never a program name). */
  allowAlways(key: string): void {
    this.alwaysAllowed.add(key);
    this.rules.remember(key);
  }

  /** Said once, at start: a project rules file that is not in force until the user trusts it. */
  private noteUntrustedRules(): void {
    try {
      const p = this.rules.project();
      if (p && p.trust !== 'trusted') this.events.warn(projectNote(p));
    } catch (err) {
      this.events.warn(`project rules not read: ${formatError(err)}`);
    }
  }

  /** End the MCP servers (no processes left behind). */
  async close(): Promise<void> {
    await this.mcp?.close();
  }

  private mcpTool(info: McpToolInfo): McpTool {
    let t = this.mcpTools.get(info);
    if (!t) {
      t = new McpTool(
        info,
        (name, args, signal) => this.callMcp(name, args, signal),
        (texts) => this.rules.argumentRuling(texts),
      );
      this.mcpTools.set(info, t);
    }
    return t;
  }

  private callMcp(name: string, args: unknown, signal: AbortSignal) {
    if (!this.mcp) return Promise.resolve({ text: `no MCP server offers ${name}`, isError: true });
    return this.mcp.call(name, args, signal);
  }

  private async startMcp(): Promise<void> {
    const servers = this.config.mcp.servers;
    if (Object.keys(servers).length === 0) return;
    const { McpManager } = await import('./mcp/manager');
    const reported = new Set<string>();
    this.mcp = new McpManager(servers, {
      logDir: this.dirs.logDir,
      baseDir: this.dirs.baseDir,
      onChange: () => {
        for (const s of this.mcp?.statuses() ?? []) {
          if (s.state === 'failed' && !reported.has(s.name)) {
            reported.add(s.name);
            this.events.warn(`MCP server ${s.name}: ${s.error ?? 'failed'} — skipped (log: ${s.logPath})`);
          }
        }
        this.events.changed();
      },
    });
    this.mcp.start();
  }
}
