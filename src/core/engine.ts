/**
 * The headless core's front door (no Ink, no process-wide side effects): one conversation, built by
 * the composition root (session-parts.ts), and the few verbs a front end drives it with. Front ends
 * feed it input through the input router and show what it reports through the host.
 */
import type { ResolvedPreset } from '../broker/presets';
import type { Setup } from '../config/setup';
import { summarizerPreset } from './capture-deps';
import type { EngineHost } from './host';
import type { EngineOptions } from './options';
import { sendPrompt } from './prompt';
import { defaultConfigPath } from '../config/paths';
import { welcomeLine } from './resume-view';
import type { NorrisResult } from './norris';
import { composeSession, type SessionParts } from './session-parts';
import type { StatusInfo } from './status';
import { suggestDepsOf } from './suggest-deps';
import type { SuggestDeps } from './suggest';
import type { TurnOutcome } from './turn';

/**
 * The parts stay inside: a front end drives the session through the verbs below, and its input
 * router (input/, a layer above) is built over the parts once, by `compose`.
 */
export class Engine {
  private constructor(private readonly parts: SessionParts) {}

  /** Everything that must be true before the first prompt; the rest (memory, MCP) starts in start(). */
  static create(setup: Setup, host: EngineHost, opts: EngineOptions = {}): Engine {
    return Engine.compose(setup, host, opts, () => null)[0];
  }

  /** create, and `attach` (the input router's builder) given the session's parts, once. */
  static compose<T>(setup: Setup, host: EngineHost, opts: EngineOptions, attach: (parts: SessionParts) => T): [Engine, T] {
    const e = new Engine(composeSession(setup, host, opts));
    if (opts.resume) e.parts.chat.resume(opts.resume, 'aish sessions list');
    else if (opts.continueLatest) e.parts.chat.resume(null);
    return [e, attach(e.parts)];
  }

  /** Load memory and start MCP servers in the background; the first model call waits for memory. */
  start(): void {
    const { host, memory, models, toolbox, oneshot } = this.parts;
    // Without a key the first prompt would fail: say so now, with what to do.
    const { setup, env } = this.parts;
    const welcome = oneshot ? null : welcomeLine(models.active, { path: setup.configPath, defaultPath: defaultConfigPath(env) });
    if (welcome) host.print({ kind: 'warn', text: welcome });
    // The recall index is built after start-up memory, in slices, so the first turn rarely waits.
    void memory.ready().then(() => memory.prepareRecall());
    toolbox.start();
    // The model client's SDK loads now, not when the first prompt is already waiting for it.
    models.broker().prepare();
  }

  get busy(): boolean {
    return this.parts.run.busy;
  }

  status(): StatusInfo {
    return this.parts.status();
  }

  /**
   * Ask the model; the answer streams to the host. Tool calls go through the gate. `@path`s in
   * `text` are attached (a refused one throws: nothing is sent); `after` (piped stdin) is not scanned.
   */
  prompt(text: string, after = ''): Promise<TurnOutcome> {
    return sendPrompt(this.parts.prompt, text, after);
  }

  /** A Norris run with nobody to ask (`aish --norris`). */
  runNorris(goal: string, opts: { yes: boolean }): Promise<NorrisResult> {
    return this.parts.norris.run(goal, opts);
  }

  /** What `aish -e` needs to ask the model for a command and offer it. */
  suggester(): SuggestDeps {
    return suggestDepsOf(this.parts);
  }

  /** A background sync ended: its line for the status, and what it received in [background] from the next turn. */
  syncFinished(text: string, received: boolean): void {
    this.parts.noteSync(text);
    if (received) this.parts.memory.reselect();
  }

  /** What waits for `:memory review`: inbox candidates (conflicts among them) and conflicts. */
  reviewWaiting(): { inbox: number; conflicts: number } {
    const memory = this.parts.memory;
    return { inbox: memory.inboxCount() ?? 0, conflicts: memory.conflictCount() };
  }

  /** Whether MCP servers are configured (processes that must be ended on SIGHUP/SIGTERM). */
  get hasServers(): boolean {
    return Object.keys(this.parts.setup.config.mcp.servers).length > 0;
  }

  /** The preset a prompt would use now (its name, model and whether a key is set). */
  get preset(): ResolvedPreset {
    return this.parts.models.active;
  }

  /** Cancel what is running (Ctrl-C). True when something was running. */
  cancel(): boolean {
    return this.parts.run.cancel();
  }

  /** Model calls of this session that failed (after retries): piped mode exits 1 when any did. */
  get failedCalls(): number {
    return this.parts.run.failedCalls;
  }

  /** The preset capture and :memory summarize use. */
  get summarizer(): string {
    return summarizerPreset(this.parts.memory, this.parts.models);
  }

  get captureMode(): 'off' | 'ask' | 'auto' {
    return this.parts.keeper.capture.mode;
  }

  /**
   * Quitting (:quit, Ctrl-D, end of piped input): the session logs a detached capture should read.
   * Nothing here waits for a model.
   */
  handOffCapture(): string[] {
    return this.parts.keeper.handOff();
  }

  /** Stop what runs, close the log, end MCP servers (no processes left behind). */
  async close(): Promise<void> {
    await this.parts.run.cancelAndSettle(1000);
    this.parts.memory.stopEmbedding();
    this.parts.recorder.close();
    await this.parts.toolbox.close();
  }
}
