/**
 * The headless core (no Ink): one conversation, its model preset, its session log, its directory.
 * Every front end feeds it lines with submit() and renders what it reports through the host.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Setup } from '../app/setup';
import { expandHome } from '../config/paths';
import { Broker } from '../broker/broker';
import { resolvePreset, type ResolvedPreset } from '../broker/presets';
import type { ChatMessage } from '../broker/types';
import { dispatchMeta } from '../commands/registry';
import { Conversation } from '../context/conversation';
import { isExact } from '../context/tokens';
import { SessionLog } from '../history/session-log';
import { loadSession, resolveSession, latestSession } from '../history/sessions';
import type { Turn } from '../history/types';
import { AishError, formatError, UsageError } from '../util/errors';
import { tildify } from '../util/paths-display';
import type { EngineHost } from './host';
import { lockTimingFromEnv } from '../app/setup';
import { selectForInjection } from '../memory/select';
import { MemoryStore } from '../memory/store';
import type { PreloadResult } from '../memory/preload';
import { loadStartupMemory } from './startup-memory';
import { runBang } from './bang';
import { runTurn } from './turn';
import { runCommandSpec } from '../tools/run-command';
import { HeadTail } from '../tools/executor';
import type { McpManager, McpToolInfo, ServerStatus, ToolCallOutcome } from '../tools/mcp/manager';
import { mcpToolSpec } from '../tools/mcp-spec';
import type { ToolSpec } from '../broker/types';
import { turnsToMessages } from './replay';

/** Tool rounds per chat turn before aish stops and hands back to the user. */
export const CHAT_TOOL_ROUNDS = 10;
/** How long a model call waits for MCP servers that are still starting. */
const MCP_WAIT_MS = 5000;
const MCP_OUTPUT_LIMIT = 16 * 1024;

export interface EngineOptions {
  model?: string | undefined;
  /** false: --no-memory */
  memory?: boolean | undefined;
  resume?: string | undefined;
  continueLatest?: boolean | undefined;
  env?: NodeJS.ProcessEnv;
  /** Start-up memory already being read (in a worker) by the command line. */
  memoryPreload?: Promise<PreloadResult> | undefined;
}

export interface StatusInfo {
  preset: string;
  model: string;
  cwd: string;
  /** null while memory loads; 'off' with --no-memory or memory: false. */
  memoryInjected: number | null | 'off';
  tokens: number;
  budget: number;
  tokensExact: boolean;
  busy: boolean;
  norris: { step: number; maxSteps: number } | null;
}

export class Engine {
  readonly conversation: Conversation;
  private presetValue: ResolvedPreset;
  private brokers = new Map<string, Broker>();
  private log: SessionLog | null = null;
  private running: AbortController | null = null;
  /** `!cmd` output waiting to go out with the next prompt. */
  private pendingShell: string[] = [];
  private memoryStore: MemoryStore | null = null;
  private memoryLoaded = false;
  private memoryReady: Promise<void> | null = null;
  norrisStep: { step: number; maxSteps: number } | null = null;
  private mcp: McpManager | null = null;
  private mcpStarting: Promise<void> = Promise.resolve();
  private readonly alwaysAllowed = new Set<string>();

  private constructor(
    readonly setup: Setup,
    readonly host: EngineHost,
    readonly opts: EngineOptions,
  ) {
    this.conversation = new Conversation(setup.config.context.maxTokens);
    this.presetValue = resolvePreset(setup.config, opts.model ?? setup.config.defaultModel, opts.env);
  }

  /** Everything that must be true before the first prompt; the rest (memory) loads right after. */
  static create(setup: Setup, host: EngineHost, opts: EngineOptions = {}): Engine {
    const e = new Engine(setup, host, opts);
    if (opts.resume) e.resume(opts.resume);
    else if (opts.continueLatest) e.continueLatest();
    return e;
  }

  /** Load memory and start MCP servers in the background; the first model call waits for memory. */
  startBackgroundWork(): void {
    void this.memoryReadyPromise();
    this.mcpStarting = this.startMcp().catch((err: unknown) => {
      this.host.print({ kind: 'warn', text: `MCP servers not started: ${formatError(err)}` });
    });
  }

  private async startMcp(): Promise<void> {
    const servers = this.setup.config.mcp.servers;
    if (Object.keys(servers).length === 0) return;
    const { McpManager } = await import('../tools/mcp/manager');
    const reported = new Set<string>();
    this.mcp = new McpManager(servers, {
      logDir: join(this.paths.dataDir, 'logs'),
      baseDir: this.setup.configPath ? dirname(this.setup.configPath) : process.cwd(),
      onChange: () => {
        for (const s of this.mcp?.statuses() ?? []) {
          if (s.state === 'failed' && !reported.has(s.name)) {
            reported.add(s.name);
            this.host.print({ kind: 'warn', text: `MCP server ${s.name}: ${s.error ?? 'failed'} — skipped (log: ${s.logPath})` });
          }
        }
        this.host.statusChanged?.();
      },
    });
    this.mcp.start();
    // Servers live in their own session: a closed terminal or a kill must still end them.
    for (const sig of ['SIGHUP', 'SIGTERM'] as const) {
      process.once(sig, () => {
        void this.close().finally(() => process.exit(128 + (sig === 'SIGHUP' ? 1 : 15)));
      });
    }
  }

  private async loadMemory(): Promise<void> {
    if (!this.injecting) return;
    try {
      const injected = await loadStartupMemory(this.setup.config, this.paths.memoryPath, () => this.store(), this.host, this.opts.memoryPreload);
      this.conversation.memoryItems = injected;
      this.memoryLoaded = true;
    } catch (err) {
      this.host.print({ kind: 'warn', text: `memory not loaded: ${formatError(err)}` });
    }
    this.host.statusChanged?.();
  }

  /** Memory goes into the system prompt (not --no-memory, not memory: false). */
  get injecting(): boolean {
    return this.opts.memory !== false && this.setup.config.memory !== false;
  }

  /** The memory store, opened on first use. With --no-memory it still works; nothing is injected. */
  store(): MemoryStore {
    if (this.setup.config.memory === false) throw new AishError('memory is off in the config (memory: false) — remove that line to use :memory');
    this.memoryStore ??= MemoryStore.open(this.paths.memoryPath, { lock: lockTimingFromEnv() });
    return this.memoryStore;
  }

  /** After any memory change: what the model sees next turn is picked again from the store. */
  reselectMemory(): void {
    const mem = this.setup.config.memory;
    this.conversation.memoryItems = this.injecting && mem ? selectForInjection(this.store().reload().items, mem.injectMaxChars) : [];
    this.memoryLoaded = true;
    this.host.statusChanged?.();
  }

  /** Startup memory (load, prune, select), done once; commands and the first model call wait for it. */
  memoryReadyPromise(): Promise<void> {
    this.memoryReady ??= this.loadMemory();
    return this.memoryReady;
  }

  get config() {
    return this.setup.config;
  }

  get paths() {
    return this.setup.paths;
  }

  get preset(): ResolvedPreset {
    return this.presetValue;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  get sessionPath(): string | null {
    return this.log?.path ?? null;
  }

  get sessionId(): string | null {
    return this.log?.id ?? null;
  }

  get cwd(): string {
    return process.cwd();
  }

  setPreset(name: string): ResolvedPreset {
    this.presetValue = resolvePreset(this.config, name, this.opts.env);
    this.host.statusChanged?.();
    return this.presetValue;
  }

  broker(preset: ResolvedPreset = this.presetValue): Broker {
    let b = this.brokers.get(preset.name);
    if (!b) {
      b = new Broker(preset);
      this.brokers.set(preset.name, b);
    }
    return b;
  }

  status(): StatusInfo {
    const req = this.conversation.request();
    return {
      preset: this.presetValue.name,
      model: this.presetValue.model,
      cwd: tildify(this.cwd),
      memoryInjected: !this.injecting ? 'off' : this.memoryLoaded ? this.conversation.memoryItems.length : null,
      tokens: req.tokens,
      budget: this.conversation.budget,
      tokensExact: isExact(),
      busy: this.busy,
      norris: this.norrisStep,
    };
  }

  /** The exact messages the next request would carry (`:history`). */
  requestMessages(): ChatMessage[] {
    return this.conversation.request().messages;
  }

  /** Run something Ctrl-C can cancel (a model call, a shell command). */
  async cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ac = new AbortController();
    this.running = ac;
    this.host.statusChanged?.();
    try {
      return await fn(ac.signal);
    } finally {
      if (this.running === ac) this.running = null;
      this.host.statusChanged?.();
    }
  }

  /** Cancel what is running (Ctrl-C). True when something was running. */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }

  /** One line of input: a meta command, a shell command, or a prompt. */
  async submit(line: string): Promise<{ quit: boolean }> {
    const text = line.replace(/\s+$/, '');
    if (!text.trim()) return { quit: false };
    try {
      if (text.startsWith(':')) return await dispatchMeta(this, text);
      if (text.startsWith('!')) {
        await runBang(this, text.slice(1));
        return { quit: false };
      }
      await this.prompt(text);
    } catch (err) {
      this.host.print({ kind: 'error', text: formatError(err) });
    }
    return { quit: false };
  }

  /** Remember `!cmd` output for the next prompt. */
  addShellContext(block: string): void {
    this.pendingShell.push(block);
    this.host.statusChanged?.();
  }

  /** Ask the model; the answer streams to the host. */
  async prompt(text: string): Promise<void> {
    await this.memoryReadyPromise();
    const content = this.pendingShell.length ? `${this.pendingShell.join('\n\n')}\n\n${text}` : text;
    this.pendingShell = [];
    const user: ChatMessage = { role: 'user', content };
    this.conversation.add(user);
    this.appendLog({ role: 'user', content });
    await this.runModelTurn();
  }

  /** The model answers (using tools as needed, asking as the gate says) until it is done. */
  async runModelTurn(): Promise<void> {
    const r = await runTurn(this, { mode: 'chat', yes: false, maxRounds: CHAT_TOOL_ROUNDS });
    if (r.end === 'error' && r.error) throw r.error;
    if (r.end === 'rounds') {
      this.host.print({ kind: 'warn', text: `stopped after ${CHAT_TOOL_ROUNDS} rounds of tool calls — say "go on" to let the model continue` });
    }
  }

  // ---- tools ----

  /** Tool specs for the next request: run_command and the tools of ready MCP servers. */
  toolSpecs(): ToolSpec[] {
    return [runCommandSpec, ...(this.mcp?.tools() ?? []).map(mcpToolSpec)];
  }

  /** Like toolSpecs, but gives MCP servers still starting a moment to come up first. */
  async toolSpecsReady(): Promise<ToolSpec[]> {
    await this.mcpStarting;
    if (this.mcp) await this.mcp.settled(MCP_WAIT_MS);
    return this.toolSpecs();
  }

  /** Each configured server's state; before the manager has loaded, all enabled ones are starting. */
  mcpStatuses(): ServerStatus[] {
    if (this.mcp) return this.mcp.statuses();
    return Object.entries(this.setup.config.mcp.servers).map(([name, c]) => ({ name, state: c.disabled ? 'disabled' : 'starting', tools: 0, logPath: '' }));
  }

  mcpTool(name: string): McpToolInfo | undefined {
    return this.mcp?.tools().find((t) => t.name === name);
  }

  async callMcp(name: string, args: unknown, signal: AbortSignal): Promise<ToolCallOutcome> {
    if (!this.mcp) return { text: `no MCP server offers ${name}`, isError: true };
    const out = await this.mcp.call(name, args, signal);
    // Servers do not cap their output; the model's context needs it capped like run_command's.
    const cap = new HeadTail(MCP_OUTPUT_LIMIT);
    cap.push(out.text);
    return { ...out, text: cap.text() };
  }

  get mcpManager(): McpManager | null {
    return this.mcp;
  }

  isAlwaysAllowed(command: string): boolean {
    return this.alwaysAllowed.has(command);
  }

  /** "always" for this exact command line, for the rest of the session (never a program name). */
  allowAlways(command: string): void {
    this.alwaysAllowed.add(command);
  }

  appendLog(turn: Omit<Turn, 'ts'>): void {
    try {
      this.log ??= SessionLog.create(this.paths.sessionsDir, { cwd: this.cwd, model: this.presetValue.model });
      this.log.append(turn);
    } catch (err) {
      this.host.print({ kind: 'warn', text: `session log not written: ${formatError(err)}` });
    }
  }

  /** `:clear`: a new conversation and a new session log; memory stays. */
  newConversation(): void {
    this.conversation.clear();
    this.pendingShell = [];
    this.log?.close();
    this.log = null;
    this.host.statusChanged?.();
  }

  saveSession(name: string): string {
    if (!this.log) throw new AishError('nothing to save yet — say something first');
    return this.log.saveAs(name);
  }

  resume(nameOrId: string): number {
    return this.resumeFrom(resolveSession(this.paths.sessionsDir, nameOrId), nameOrId);
  }

  private continueLatest(): void {
    const latest = latestSession(this.paths.sessionsDir);
    if (!latest) throw new UsageError('no earlier session to continue — start one with a prompt');
    this.resumeFrom(latest.path, latest.name);
  }

  private resumeFrom(path: string, name: string): number {
    const loaded = loadSession(path);
    for (const w of loaded.warnings) this.host.print({ kind: 'warn', text: `${name}.jsonl:${w.line}: ${w.reason}` });
    const messages = turnsToMessages(loaded.turns);
    this.conversation.load(messages);
    this.log?.close();
    this.log = SessionLog.resume(this.paths.sessionsDir, loaded, { cwd: this.cwd, model: this.presetValue.model });
    this.host.print({ kind: 'info', text: `resumed ${name}: ${messages.length} message${messages.length === 1 ? '' : 's'}` });
    this.host.statusChanged?.();
    return messages.length;
  }

  changeDir(dir: string): string {
    const target = expandHome(dir.trim() || '~');
    const abs = isAbsolute(target) ? target : resolve(this.cwd, target);
    try {
      process.chdir(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new AishError(`cd: ${dir}: ${code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : code ?? 'failed'}`);
    }
    this.host.statusChanged?.();
    return this.cwd;
  }

  /** Stop what runs, close the log, end MCP servers (no processes left behind). */
  async close(): Promise<void> {
    this.running?.abort();
    this.log?.close();
    await this.mcp?.close();
  }
}
