/**
 * The headless core (no Ink): one conversation, its model preset, its session log, its directory.
 * Every front end feeds it lines with submit() and renders what it reports through the host.
 */
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { Setup } from '../app/setup';
import { Broker } from '../broker/broker';
import { BrokerError } from '../broker/errors';
import { resolvePreset, type ResolvedPreset } from '../broker/presets';
import type { ChatMessage } from '../broker/types';
import { dispatchMeta } from '../commands/registry';
import { Conversation } from '../context/conversation';
import { isExact, loadTokenizer } from '../context/tokens';
import { SessionLog } from '../history/session-log';
import { loadSession, resolveSession, latestSession } from '../history/sessions';
import type { Turn } from '../history/types';
import { AishError, formatError, UsageError } from '../util/errors';
import { tildify } from '../util/paths-display';
import type { EngineHost } from './host';
import { lockTimingFromEnv } from '../app/setup';
import { selectForInjection } from '../memory/select';
import { MemoryStore } from '../memory/store';
import { loadStartupMemory } from './startup-memory';
import { runBang } from './bang';
import { turnsToMessages } from './replay';

export interface EngineOptions {
  model?: string | undefined;
  /** false: --no-memory */
  memory?: boolean | undefined;
  resume?: string | undefined;
  continueLatest?: boolean | undefined;
  env?: NodeJS.ProcessEnv;
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
  private memoryReady: Promise<void> = Promise.resolve();
  norrisStep: { step: number; maxSteps: number } | null = null;

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
    if (opts.resume) e.resume(opts.resume, { quiet: false });
    else if (opts.continueLatest) e.continueLatest();
    return e;
  }

  /** Load memory in the background; the first model call waits for it. */
  startBackgroundWork(): void {
    this.memoryReady = this.loadMemory();
  }

  private async loadMemory(): Promise<void> {
    if (!this.injecting) return;
    try {
      const m = await loadStartupMemory(this.setup.config, this.setup.paths, this.host);
      if (m) {
        this.memoryStore = m.store;
        this.conversation.memoryItems = m.injected;
      }
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
    this.conversation.memoryItems = this.injecting && mem ? selectForInjection(this.store().items(), mem.injectMaxChars) : [];
    this.memoryLoaded = true;
    this.host.statusChanged?.();
  }

  /** Wait until startup memory is in place (commands that read it, the first model call). */
  memoryReadyPromise(): Promise<void> {
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

  get pendingShellCount(): number {
    return this.pendingShell.length;
  }

  /** Ask the model; the answer streams to the host. */
  async prompt(text: string): Promise<void> {
    await this.memoryReady;
    const content = this.pendingShell.length ? `${this.pendingShell.join('\n\n')}\n\n${text}` : text;
    this.pendingShell = [];
    const user: ChatMessage = { role: 'user', content };
    this.conversation.add(user);
    this.appendLog({ role: 'user', content });
    await this.runModelTurn();
  }

  /** Run one model call on the current conversation and record its answer. */
  async runModelTurn(): Promise<void> {
    const ac = new AbortController();
    this.running = ac;
    this.host.statusChanged?.();
    this.host.liveStart('assistant');
    let live = true;
    const endLive = () => {
      if (live) this.host.liveEnd();
      live = false;
    };
    try {
      let req = this.conversation.request();
      // Near the budget, count exactly before deciding what to evict.
      if (!isExact() && req.tokens > this.conversation.budget * 0.6) {
        await loadTokenizer();
        req = this.conversation.request();
      }
      const result = await this.broker().stream(req.messages, {
        signal: ac.signal,
        onText: (t) => this.host.liveText(t),
      });
      endLive();
      const content = result.interrupted ? `${result.content}${result.content ? '\n\n' : ''}[interrupted by the user]` : result.content;
      this.conversation.add({ role: 'assistant', content });
      this.appendLog({ role: 'assistant', content, ...(result.interrupted && { meta: 'interrupted' }) });
      if (result.content || !result.interrupted) {
        this.host.print({ kind: 'assistant', text: result.content, markdown: true, interrupted: result.interrupted });
      }
      if (result.interrupted) this.host.print({ kind: 'info', text: 'interrupted' });
    } catch (err) {
      endLive();
      const partial = err instanceof BrokerError ? err.partial : '';
      if (partial) {
        const content = `${partial}\n\n[answer broken off]`;
        this.conversation.add({ role: 'assistant', content });
        this.appendLog({ role: 'assistant', content, meta: 'interrupted' });
        this.host.print({ kind: 'assistant', text: partial, markdown: true, interrupted: true });
      } else {
        // Nothing came back: take the question out again so a retry does not send it twice.
        this.dropLastUser();
        this.appendLog({ role: 'assistant', content: null, meta: 'error' });
      }
      throw err instanceof AishError ? err : new AishError(formatError(err));
    } finally {
      this.running = null;
      this.host.statusChanged?.();
    }
  }

  private dropLastUser(): void {
    const msgs = this.conversation.messages;
    if (msgs[msgs.length - 1]?.role === 'user') this.conversation.load(msgs.slice(0, -1));
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

  resume(nameOrId: string, opts: { quiet?: boolean } = {}): number {
    const path = resolveSession(this.paths.sessionsDir, nameOrId);
    return this.resumeFrom(path, nameOrId, opts);
  }

  private continueLatest(): void {
    const latest = latestSession(this.paths.sessionsDir);
    if (!latest) throw new UsageError('no earlier session to continue — start one with a prompt');
    this.resumeFrom(latest.path, latest.name, {});
  }

  private resumeFrom(path: string, name: string, opts: { quiet?: boolean }): number {
    const loaded = loadSession(path);
    for (const w of loaded.warnings) this.host.print({ kind: 'warn', text: `${name}.jsonl:${w.line}: ${w.reason}` });
    const messages = turnsToMessages(loaded.turns);
    this.conversation.load(messages);
    this.log?.close();
    this.log = SessionLog.resume(this.paths.sessionsDir, loaded, { cwd: this.cwd, model: this.presetValue.model });
    if (!opts.quiet) this.host.print({ kind: 'info', text: `resumed ${name}: ${messages.length} message${messages.length === 1 ? '' : 's'}` });
    this.host.statusChanged?.();
    return messages.length;
  }

  changeDir(dir: string): string {
    const target = expandTilde(dir.trim() || '~');
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

  close(): void {
    this.running?.abort();
    this.log?.close();
  }
}

function expandTilde(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return resolve(homedir(), p.slice(2));
  return p;
}
