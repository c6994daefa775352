/**
 * MCP client side of aish: starts the configured stdio servers in the background and
 * offers their tools to the model as `server__tool`. Importing this module is cheap: the SDK and the
 * transport are loaded with `import()` by start(), so aish's start-up never pays for them.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../config/types';
import type { DetachedStdioTransport } from './transport';
import { listAll, MAX_ALL_TOOLS, MAX_TOTAL_FACTOR, offer, timedOut } from './offer';
import { formatContent, sanitizeToolName, shortHash, toInfo, VALID_NAME, type McpToolInfo } from './tool-info';

type ServerState = 'disabled' | 'starting' | 'ready' | 'failed' | 'closed';
export interface ServerStatus {
  name: string;
  state: ServerState;
  /** One line, e.g. "command not found: foo" or "exited during start (code 1)". */
  error?: string;
  tools: number;
  /** What of the server's offer is not used, e.g. "offers 5,000 tools; the first 100 are used". */
  note?: string;
  logPath: string;
  pid?: number;
}
export interface ToolCallOutcome {
  /** Content parts joined by newlines; non-text parts summarised like "[image/png, 1234 bytes]". */
  text: string;
  isError: boolean;
}
export interface McpManagerOptions {
  logDir: string;
  /** Relative `cwd`s in the config resolve against this. */
  baseDir: string;
  /** Called with the server whose state or tool list changed (ready, failed, died, tools changed). */
  onChange?: (status: ServerStatus) => void;
  startTimeoutMs?: number;
  /** Per call; progress notifications from the server restart the clock. */
  callTimeoutMs?: number;
  clientVersion?: string;
}

interface Entry {
  name: string;
  cfg: McpServerConfig;
  state: ServerState;
  error?: string;
  logPath: string;
  tools: Tool[];
  note?: string;
  client?: Client;
  transport?: DetachedStdioTransport;
  starting?: Promise<void>;
}

/** One line, at most 200 characters. */
const oneLine = (s: string): string => {
  const line = s.split('\n').find((l) => l.trim()) ?? s;
  return line.length > 200 ? `${line.slice(0, 199)}…` : line.trim();
};
const exitText = (t: DetachedStdioTransport): string => (t.exitSignal ? `signal ${t.exitSignal}` : `code ${t.exitCode ?? '?'}`);

export class McpManager {
  private readonly entries: Entry[];
  private exposed = new Map<string, { entry: Entry; tool: Tool; info: McpToolInfo }>();
  private started = false;
  private closing?: Promise<void>;
  private readonly startTimeoutMs: number;
  private readonly callTimeoutMs: number;

  constructor(
    servers: Record<string, McpServerConfig>,
    private readonly opts: McpManagerOptions,
  ) {
    this.startTimeoutMs = opts.startTimeoutMs ?? 15_000;
    this.callTimeoutMs = opts.callTimeoutMs ?? 120_000;
    const files = new Set<string>();
    this.entries = Object.entries(servers).map(([name, cfg]) => {
      let file = name.replace(/[^a-zA-Z0-9_.-]/g, '_');
      if (file !== name || files.has(file)) file += `-${shortHash(name)}`;
      files.add(file);
      return { name, cfg, state: cfg.disabled ? 'disabled' : 'starting', logPath: join(opts.logDir, `mcp-${file}.log`), tools: [] };
    });
  }

  /** Starts every enabled server in the background; returns at once and never throws. */
  start(): void {
    if (this.started || this.closing) return;
    this.started = true;
    for (const e of this.entries) {
      // Anything unexpected (say the SDK chunk failed to load) still ends in 'failed', never a stuck 'starting'.
      if (e.state === 'starting') e.starting = this.startOne(e).catch((err: unknown) => this.fail(e, oneLine(String(err))));
    }
  }

  statuses(): ServerStatus[] {
    return this.entries.map((e) => this.status(e));
  }

  /** Tools of ready servers, in config order. */
  tools(): McpToolInfo[] {
    return [...this.exposed.values()].map((x) => x.info);
  }

  /** Resolves when no server is starting any more, or after `timeoutMs` (at once if start() was never called). */
  async settled(timeoutMs: number): Promise<void> {
    const pending = this.entries.flatMap((e) => (e.starting ? [e.starting] : []));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(pending), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  async call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolCallOutcome> {
    const hit = this.exposed.get(name);
    if (!hit) {
      const dead = this.entries.find((e) => name.startsWith(`${e.name.replace(/[^a-zA-Z0-9_-]/g, '_')}__`) && e.state !== 'ready');
      const why = dead ? `: MCP server "${dead.name}" is ${dead.state}${dead.error ? ` (${dead.error})` : ''}` : '';
      return { isError: true, text: `unknown tool "${name}"${why}` };
    }
    const { entry, tool } = hit;
    if (signal?.aborted) return { isError: true, text: 'cancelled' };
    const params = args ?? {};
    if (typeof params !== 'object' || Array.isArray(params)) return { isError: true, text: 'arguments must be a JSON object' };
    const client = entry.client;
    if (!client || entry.state !== 'ready') return { isError: true, text: `MCP server "${entry.name}" is ${entry.state}` };
    try {
      const res = await client.callTool({ name: tool.name, arguments: params as Record<string, unknown> }, undefined, {
        signal,
        timeout: this.callTimeoutMs,
        resetTimeoutOnProgress: true,
        // Progress alone (a server that reports for ever) does not keep a call going past this.
        maxTotalTimeout: this.callTimeoutMs * MAX_TOTAL_FACTOR,
        onprogress: () => undefined, // asks for progress, which keeps long tools alive past the timeout
      });
      return { isError: res.isError === true, text: formatContent(res.content, res.structuredContent) };
    } catch (err) {
      if (signal?.aborted) return { isError: true, text: 'cancelled' };
      if (this.closing) return { isError: true, text: 'cancelled: MCP servers are shutting down' };
      const t = entry.transport;
      if (t && !t.closed && (err as { code?: unknown }).code === -32000) await t.waitClosed(500);
      if (t?.closed) return { isError: true, text: `MCP server "${entry.name}" exited during the call (${exitText(t)})` };
      if ((err as { code?: unknown }).code === -32001) return { isError: true, text: timedOut(name, this.callTimeoutMs, err) };
      return { isError: true, text: `MCP error: ${oneLine(err instanceof Error ? err.message : String(err))}` };
    }
  }

  /** Closes every client and kills every server (process groups included). Idempotent; never throws. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const transports = this.entries.flatMap((e) => (e.transport ? [e.transport] : []));
      for (const e of this.entries) if (e.state !== 'disabled') e.state = 'closed';
      this.rebuild();
      await Promise.all(transports.map((t) => t.close()));
    })();
    return this.closing;
  }

  private status(e: Entry): ServerStatus {
    const offered = [...this.exposed.values()].filter((x) => x.entry === e).length;
    const s: ServerStatus = { name: e.name, state: e.state, tools: e.state === 'ready' ? offered : 0, logPath: e.logPath };
    if (e.error !== undefined) s.error = e.error;
    const cut = e.tools.length - offered;
    const more = cut > 0 ? `${cut} more not offered (${MAX_ALL_TOOLS} tools in all, servers in config order)` : '';
    if (e.state === 'ready' && (e.note ?? more)) s.note = [e.note, more].filter(Boolean).join('; ');
    const pid = e.transport?.pid;
    if (pid !== undefined && (e.state === 'starting' || e.state === 'ready')) s.pid = pid;
    return s;
  }

  private changed(e: Entry): void {
    try {
      this.opts.onChange?.(this.status(e));
    } catch {
      /* a listener bug must not break the servers */
    }
  }

  private async startOne(e: Entry): Promise<void> {
    const [{ Client }, { DetachedStdioTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('./transport'),
    ]);
    if (this.closing) return;
    const cwd = e.cfg.cwd === undefined ? undefined : resolve(this.opts.baseDir, e.cfg.cwd);
    if (cwd !== undefined && !isDir(cwd)) return this.fail(e, `working directory not found: ${cwd}`);
    const transport = new DetachedStdioTransport({ command: e.cfg.command, args: e.cfg.args, env: e.cfg.env, cwd, logPath: e.logPath });
    const client = new Client(
      { name: 'aish', version: this.opts.clientVersion ?? '0' },
      // The SDK's auto-refresh reads only the first page, so refresh ourselves.
      { listChanged: { tools: { autoRefresh: false, onChanged: () => void this.refresh(e) } } },
    );
    e.transport = transport;
    e.client = client;
    transport.onclose = () => this.onExit(e, transport); // Protocol.connect chains its own handler after it
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not start within ${this.startTimeoutMs / 1000} s`)), this.startTimeoutMs);
    });
    try {
      await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: this.startTimeoutMs });
          this.setTools(e, await listAll(client, this.startTimeoutMs));
        })(),
        timeout,
      ]);
    } catch (err) {
      if (this.closing) return;
      // Our timer or the SDK's own request timeout (-32001), whichever fired first.
      const timedOut = (err instanceof Error && err.message.startsWith('did not start')) || (err as { code?: unknown }).code === -32001;
      // Died during the handshake? The rejection can beat the 'close' event; give it a moment.
      if (!timedOut && !transport.closed) await transport.waitClosed(500);
      const se = transport.spawnError;
      const msg =
        se?.code === 'ENOENT'
          ? `command not found: ${e.cfg.command}`
          : se?.code === 'EACCES'
            ? `permission denied: ${e.cfg.command}`
            : se
              ? oneLine(se.message)
              : timedOut
                ? `did not start within ${this.startTimeoutMs / 1000} s`
                : transport.closed
                  ? `exited during start (${exitText(transport)})`
                  : oneLine(err instanceof Error ? err.message : String(err));
      void transport.close();
      return this.fail(e, msg);
    } finally {
      clearTimeout(timer);
    }
    if (e.state !== 'starting' || this.closing) return;
    e.state = 'ready';
    this.rebuild();
    this.changed(e);
  }

  /** Reported once through onChange; the server is not retried. */
  private fail(e: Entry, error: string): void {
    if (this.closing || e.state === 'failed') return;
    e.state = 'failed';
    e.error = error;
    this.rebuild();
    this.changed(e);
  }

  private onExit(e: Entry, t: DetachedStdioTransport): void {
    if (e.state === 'ready' && !this.closing) {
      this.fail(e, `exited (${exitText(t)})`);
      void t.close(); // sweep anything left in its group
    }
  }

  private async refresh(e: Entry): Promise<void> {
    if (e.state !== 'ready' || !e.client) return;
    try {
      const tools = await listAll(e.client, this.startTimeoutMs);
      if (e.state !== 'ready') return;
      this.setTools(e, tools);
      this.rebuild();
      this.changed(e);
    } catch {
      /* keep the previous list */
    }
  }

  private setTools(e: Entry, listed: { tools: Tool[]; more: boolean }): void {
    ({ tools: e.tools, note: e.note } = offer(listed.tools, listed.more));
    if (e.note) e.transport?.note(e.note);
  }

  /** Recomputes exposed names: unchanged valid names first, so they never shift when others appear. */
  private rebuild(): void {
    const ready = this.entries.flatMap((entry) => (entry.state === 'ready' ? entry.tools.map((tool) => ({ entry, tool })) : []));
    ready.splice(MAX_ALL_TOOLS);
    const named = new Map<number, string>();
    const taken = new Set<string>();
    ready.forEach(({ entry, tool }, i) => {
      const raw = `${entry.name}__${tool.name}`;
      if (VALID_NAME.test(raw) && !taken.has(raw)) {
        named.set(i, raw);
        taken.add(raw);
      }
    });
    this.exposed = new Map();
    ready.forEach(({ entry, tool }, i) => {
      const name = named.get(i) ?? sanitizeToolName(entry.name, tool.name, taken);
      taken.add(name);
      this.exposed.set(name, { entry, tool, info: toInfo(name, entry.name, tool) });
    });
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // ENOENT, ENOTDIR, EACCES
  }
}
