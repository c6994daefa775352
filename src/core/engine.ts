/**
 * The headless core (no Ink, no process-wide side effects): one conversation and the parts it is
 * made of — model presets, memory, tools, the session log, Norris. Front ends feed it input through
 * the input router and show what it reports through the host.
 */
import { dirname, join } from 'node:path';
import type { Broker } from '../broker/broker';
import { Models } from '../broker/models';
import type { ChatMessage, Usage } from '../broker/types';
import { Checkpoints, checkpointsRoot } from '../checkpoints/checkpoints';
import type { Setup } from '../config/setup';
import { Conversation } from '../context/conversation';
import { composeSystemPrompt } from '../context/system-prompt';
import { withAtFiles } from '../context/at-files';
import type { WindowResult } from '../context/window';
import { MemorySession } from '../memory/session';
import { recallQuery } from '../context/recall-query';
import { SessionRecorder } from '../sessions/recorder';
import type { SessionDigest } from '../sessions/digest';
import type { NewTurn } from '../sessions/types';
import { Toolbox } from '../tools/toolbox';
import { changeDirectory } from '../util/paths';
import type { EngineHost } from './host';
import { Guards } from './guards';
import { Norris } from './norris';
import type { EngineOptions } from './options';
import { terminalSafeHost } from './safe-host';
import { statusOf, type StatusInfo } from './status';
import { UsageTally, type PresetUsage } from './usage';
import { describeReload, reloadConfig } from './config-reload';
import { resumedOutput, welcomeLine } from './resume-view';
import { runTurn, type TurnOutcome } from './turn';
import { keeperFor, summarizerPreset } from './capture-deps';
import type { SessionKeeper } from './session-keeper';

/** Tool rounds per chat turn before aish stops and hands back to the user. */
export const CHAT_TOOL_ROUNDS = 10;

export class Engine {
  readonly conversation: Conversation;
  readonly models: Models;
  readonly memory: MemorySession;
  readonly toolbox: Toolbox;
  readonly recorder: SessionRecorder;
  readonly norris: Norris;
  readonly guards: Guards;
  /** The session's digest and working state, eviction, and when capture runs. */
  readonly keeper: SessionKeeper;
  private running: AbortController | null = null;
  /** `!cmd` output waiting to go out with the next prompt. */
  private pendingShell: string[] = [];
  private readonly tally = new UsageTally();
  private failures = 0;
  private readonly env: NodeJS.ProcessEnv;
  private readonly oneshot: boolean;

  /** The front end's host behind a filter: nothing shown can drive the terminal. */
  readonly host: EngineHost;

  private constructor(
    readonly setup: Setup,
    frontHost: EngineHost,
    opts: EngineOptions,
  ) {
    const host = (this.host = terminalSafeHost(frontHost));
    this.env = opts.env ?? process.env;
    this.oneshot = opts.oneshot === true;
    const { config, paths } = setup;
    const notify = () => this.notify();
    const warn = (text: string) => host.print({ kind: 'warn', text });
    this.conversation = new Conversation(config.context.maxTokens);
    this.models = new Models(config, opts.model ?? config.defaultModel, opts.env, notify);
    this.memory = new MemorySession(
      config,
      paths.memoryPath,
      {
        inject: opts.memory,
        cwd: () => this.cwd,
        // -p and --norris read no :commands: point at the shell's command instead.
        ...(frontHost.canAsk === false && { inspectHint: 'aish memory list' }),
      },
      { notice: (kind, text) => host.print({ kind, text }), changed: notify },
    );
    const baseDir = setup.configPath ? dirname(setup.configPath) : process.cwd();
    this.toolbox = new Toolbox(config, { logDir: join(paths.dataDir, 'logs'), baseDir }, { warn, changed: notify }, this.memory);
    this.recorder = new SessionRecorder(
      paths.sessionsDir,
      () => ({ cwd: this.cwd, model: this.models.active.model, ...(opts.oneshot && { oneshot: true }) }),
      warn,
    );
    // The checkpoints of aish's directory follow :cd; no git runs until one is needed.
    this.guards = new Guards(config.safety, new Checkpoints(checkpointsRoot(paths.dataDir), () => this.cwd), warn);
    this.norris = new Norris(this);
    this.keeper = keeperFor(this, opts, warn, notify);
  }

  /** Everything that must be true before the first prompt; the rest (memory, MCP) starts in start(). */
  static create(setup: Setup, host: EngineHost, opts: EngineOptions = {}): Engine {
    const e = new Engine(setup, host, opts);
    if (opts.resume) e.resume(opts.resume, 'aish sessions list');
    else if (opts.continueLatest) e.resume(null);
    return e;
  }

  /** Load memory and start MCP servers in the background; the first model call waits for memory. */
  start(): void {
    // Without a key the first prompt would fail: say so now, with what to do.
    const welcome = this.oneshot ? null : welcomeLine(this.models.active);
    if (welcome) this.host.print({ kind: 'warn', text: welcome });
    // The recall index is built after start-up memory, in slices, so the first turn rarely waits.
    void this.memory.ready().then(() => this.memory.prepareRecall());
    this.toolbox.start();
  }

  get captureMode(): 'off' | 'ask' | 'auto' {
    return this.keeper.capture.mode;
  }

  /** The preset capture and :memory summarize use. */
  get summarizer(): string {
    return summarizerPreset(this.memory, this.models);
  }

  get configPath(): string | null {
    return this.setup.configPath;
  }

  get config() {
    return this.setup.config;
  }

  get cwd(): string {
    return process.cwd();
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** The exact request the model gets next: system prompt (with [background] or NORRIS), then the window. */
  request(): WindowResult {
    const n = this.norris.state;
    const system = composeSystemPrompt({
      memoryItems: this.memory.injected,
      session: this.keeper.sessionText(),
      norris: n && { goal: n.goal, maxSteps: n.maxSteps },
    });
    return this.conversation.request(system, !n);
  }

  /** The exact messages the next request would carry (`:history`). */
  requestMessages(): ChatMessage[] {
    return this.request().messages;
  }

  digest(): SessionDigest | null {
    return this.keeper.digest;
  }

  lastPrompt(): string | null {
    const m = this.conversation.messages.findLast((x) => x.role === 'user' && !x.content.startsWith('[NORRIS'));
    return m ? (m.content as string) : null;
  }

  status(): StatusInfo {
    return statusOf({
      preset: this.models.active,
      cwd: this.cwd,
      memory: this.memory,
      request: this.request(),
      budget: this.conversation.budget,
      busy: this.busy,
      norris: this.norris.state,
      usage: this.tally.status((name) => this.config.models[name]?.price),
    });
  }

  /** Something the status line shows changed: hand the host the new status. */
  notify(): void {
    this.host.status?.(this.status());
  }

  broker(): Broker {
    return this.models.broker();
  }

  /** The Norris step running now, for checkpoint labels. */
  stepLabel(): string | undefined {
    const n = this.norris.state;
    return n && n.step > 0 ? `step ${n.step}/${n.maxSteps}` : undefined;
  }

  record(turn: NewTurn): void {
    this.recorder.append(turn);
  }

  countUsage(u: Usage, opts: { estimated: boolean; firstOfTurn: boolean }): void {
    this.tally.add(this.models.active.name, u, opts);
  }

  /** `:usage`: this run's model calls per preset, and what each preset costs (when priced). */
  usageReport(): { presets: PresetUsage[]; price(preset: string): { input: number; output: number } | undefined } {
    return { presets: this.tally.presets(), price: (name) => this.config.models[name]?.price };
  }

  callFailed(): void {
    this.failures++;
  }

  /** Model calls of this session that failed (after retries). */
  get failedCalls(): number {
    return this.failures;
  }

  /** Run something Ctrl-C can cancel (a model call, a shell command). */
  async cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ac = new AbortController();
    this.running = ac;
    this.notify();
    try {
      return await fn(ac.signal);
    } finally {
      if (this.running === ac) this.running = null;
      this.notify();
    }
  }

  /** Cancel what is running (Ctrl-C). True when something was running. */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }

  /** Remember `!cmd` output for the next prompt. */
  addShellContext(block: string): void {
    this.pendingShell.push(block);
    this.notify();
  }

  /**
   * Ask the model; the answer streams to the host. Tool calls go through the gate. `@path`s in
   * `text` are attached (a refused one throws: nothing is sent); `after` (piped stdin) is not scanned.
   */
  async prompt(text: string, after = ''): Promise<TurnOutcome> {
    const refused = (line: string) => this.host.print({ kind: 'error', text: line });
    const sent = withAtFiles(text, { cwd: this.cwd, maxFileBytes: this.config.context.maxFileBytes }, refused) + after;
    await this.memory.ready();
    const content = this.pendingShell.length ? `${this.pendingShell.join('\n\n')}\n\n${sent}` : sent;
    this.pendingShell = [];
    // Norris leaves memory out of its steps (see docs/memory.md); so does --no-memory.
    const recall = this.norris.state ? null : await this.memory.recall(recallQuery(text, this.conversation.messages));
    this.conversation.add({ role: 'user', content }, recall?.block);
    this.record({
      role: 'user',
      content,
      ...(recall && { recall: recall.items.map((r) => r.item.id) }),
      ...(content !== text && { typed: text }),
    });
    this.keeper.userTurn();
    const r = await runTurn(this, { mode: 'chat', yes: false, maxRounds: CHAT_TOOL_ROUNDS });
    this.keeper.afterExchange(this.request().evicted);
    if (r.end === 'error' && r.error) throw r.error;
    if (r.end === 'rounds') {
      this.host.print({
        kind: 'warn',
        text: `stopped after ${CHAT_TOOL_ROUNDS} rounds of tool calls — say "go on" to let the model continue`,
      });
    }
    return r;
  }

  /** `:clear`: a new conversation and a new session log; memory stays. */
  newConversation(): void {
    this.keeper.cleared(this.recorder.path);
    this.conversation.clear();
    this.pendingShell = [];
    this.recorder.startNew();
    this.notify();
  }

  /**
   * Continue a saved or recent session (null: the latest; none there starts a new one); its
   * messages replace the conversation. `listHint` says where the names are listed.
   */
  resume(nameOrId: string | null, listHint?: string): number {
    const r = nameOrId === null ? this.recorder.resumeLatest() : this.recorder.resume(nameOrId, listHint);
    if (!r) {
      this.host.print({ kind: 'info', text: 'no earlier session to continue — starting a new one' });
      return 0;
    }
    this.conversation.load(r.messages);
    this.keeper.resumedWith(r.digest);
    const shown = resumedOutput(r, this.host.interactive ? (this.host.pageLines?.() ?? 20) : 0);
    for (const item of shown.items) this.host.print(item);
    this.notify();
    return shown.turns;
  }

  /** `:config reload`: the presets now, the rest named for the next start. */
  async reloadConfig(): Promise<string> {
    const r = await reloadConfig(this.setup, this.env);
    this.notify();
    return describeReload(r, this.models.names());
  }

  /** `:cd` / `!cd`: change aish's directory (the process's: child commands inherit it). */
  changeDir(dir: string): string {
    changeDirectory(dir);
    this.memory.dirChanged();
    this.notify();
    return this.cwd;
  }

  /**
   * Quitting (:quit, Ctrl-D, end of piped input): the session logs a detached capture should read.
   * Nothing here waits for a model.
   */
  handOffCapture(): string[] {
    return this.keeper.handOff();
  }

  /** Stop what runs, close the log, end MCP servers (no processes left behind). */
  async close(): Promise<void> {
    this.running?.abort();
    this.recorder.close();
    await this.toolbox.close();
  }
}
