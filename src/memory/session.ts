/**
 * One aish session's view of memory: the store (opened on first use), what is injected into the
 * system prompt now, and the start-up load that everything model-facing waits for. Changes are
 * reported through `events`; the session never prints.
 */
import type { AishConfig } from '../config/types';
import { AishError, formatError } from '../util/errors';
import { lockTimingFromEnv } from './lock';
import type { PreloadResult } from './preload';
import { selectForInjection } from './select';
import { loadStartupMemory } from './startup';
import { MemoryStore } from './store';
import type { MemoryItem } from './types';

export interface MemorySessionEvents {
  notice(kind: 'info' | 'warn', text: string): void;
  /** What is injected, or whether it is known yet, changed. */
  changed(): void;
}

export interface MemorySessionOptions {
  /** false: --no-memory (the store still works; nothing is injected). */
  inject?: boolean | undefined;
  /** Start-up memory already being read (in a worker) by the command line. */
  preload?: Promise<PreloadResult> | undefined;
}

export class MemorySession {
  private storeValue: MemoryStore | null = null;
  private loaded = false;
  private readyPromise: Promise<void> | null = null;
  private items: MemoryItem[] = [];

  constructor(
    private readonly config: AishConfig,
    readonly path: string,
    private readonly opts: MemorySessionOptions,
    private readonly events: MemorySessionEvents,
  ) {}

  /** Memory goes into the system prompt (not --no-memory, not `memory: false`). */
  get injecting(): boolean {
    return this.opts.inject !== false && this.config.memory !== false;
  }

  /** The items in the system prompt now. */
  get injected(): readonly MemoryItem[] {
    return this.items;
  }

  /** `memory.injectMaxChars`, 0 when memory is off. */
  get budget(): number {
    return this.config.memory ? this.config.memory.injectMaxChars : 0;
  }

  /** The preset `:memory summarize` uses, when the config names one. */
  get summarizerModel(): string | undefined {
    return this.config.memory ? this.config.memory.summarizerModel : undefined;
  }

  /** For the status line: the injected count, null while loading, 'off' when not injecting. */
  statusValue(): number | null | 'off' {
    return !this.injecting ? 'off' : this.loaded ? this.items.length : null;
  }

  /** The store, opened on first use. With --no-memory it still works; nothing is injected. */
  store(): MemoryStore {
    if (this.config.memory === false) throw new AishError('memory is off in the config (memory: false) — remove that line to use :memory');
    // The store's notices (a file made private, a lock taken over) reach the user like any other.
    this.storeValue ??= MemoryStore.open(this.path, { lock: lockTimingFromEnv(), notice: (text) => this.events.notice('warn', text) });
    return this.storeValue;
  }

  /** Start-up memory (load, prune, select), done once; commands and the first model call wait for it. */
  ready(): Promise<void> {
    this.readyPromise ??= this.load();
    return this.readyPromise;
  }

  /** After any memory change: what the model sees next turn is picked again from the store. */
  reselect(): void {
    const mem = this.config.memory;
    this.items = this.injecting && mem ? selectForInjection(this.store().reload().items, mem.injectMaxChars) : [];
    this.loaded = true;
    this.events.changed();
  }

  close(): void {
    this.storeValue?.close();
  }

  private async load(): Promise<void> {
    if (!this.injecting) return;
    try {
      const r = await loadStartupMemory(this.config, this.path, () => this.store(), this.opts.preload);
      for (const n of r.notices) this.events.notice(n.kind, n.text);
      this.items = r.injected;
      this.loaded = true;
    } catch (err) {
      this.events.notice('warn', `memory not loaded: ${formatError(err)}`);
    }
    this.events.changed();
  }
}
