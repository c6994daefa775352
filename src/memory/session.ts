/**
 * One aish session's view of memory: the store (opened on first use), the [background] items in
 * the system prompt now, the per-turn [recall], and the start-up load that everything model-facing
 * waits for. Changes are reported through `events`; the session never prints.
 */
import type { AishConfig, RecallConfig } from '../config/types';
import { AishError, formatError } from '../util/errors';
import { conflictCount } from './review/conflicts';
import { Inbox } from './review/inbox';
import { memoryWrites, type MemoryWrites } from './review/writes';
import { noteRecalled } from './review/recall-use';
import { indexBackground, type IndexBackground } from './index/background';
import { MemoryIndex } from './index/memory-index';
import { lockTimingFromEnv } from './log/lock';
import type { MemoryPlan } from './recall/plan';
import { scopeFilter } from './project/project';
import { useConfirmedProjects } from './project/project-trust';
import { givingWay } from './background/select';
import { memoryBudget, type MemoryBudget } from './background/budget';
import type { Recalled } from './recall/recall';
import type { QueryPart } from './recall/recall-rank';
import { SessionRecall, type TurnRecall } from './recall/session-recall';
import type { Embeddings } from './embed/embeddings';
import { loadStartupMemory } from './background/startup';
import { MemoryStore } from './store';
import { TeamMemory } from './team/team-memory';
import { storePinned, withTeamBackground, withTeamPlan } from './team/team-select';
import type { MemoryItem } from './types';

export interface MemorySessionEvents {
  notice(kind: 'info' | 'warn', text: string): void;
  /** What is injected, or whether it is known yet, changed. */
  changed(): void;
}

export interface MemorySessionOptions {
  /** false: --no-memory (the store still works; nothing is injected or recalled). */
  inject?: boolean | undefined;
  /** aish's directory now (project items apply inside their scope). Default: the process's. */
  cwd?: () => string;
  /** What to run to see unreadable lines: `:memory inject` where :commands are typed, else the shell's. */
  inspectHint?: string;
  /** The model preset aish started with (the embeddings server's unless they name one). Default: defaultModel. */
  preset?: string;
}

/** Above this many items, `nearby` asks the index instead of scanning the store. */
const SCAN_LIMIT = 5000;

export type { TurnRecall } from './recall/session-recall';

export class MemorySession {
  private storeValue: MemoryStore | null = null;
  private inboxValue: Inbox | null = null;
  private loaded = false;
  private readyPromise: Promise<void> | null = null;
  private items: MemoryItem[] = [];
  private indexValue: MemoryIndex | null = null;
  private teamValue: TeamMemory | null = null;
  private readonly recaller: SessionRecall;
  /** Characters of the last turn's [recall]: [background]'s filler gives way to them. */
  private recallChars = 0;
  private readonly budgets: MemoryBudget; // read from the config once
  constructor(
    private readonly config: AishConfig,
    readonly path: string,
    private readonly opts: MemorySessionOptions,
    private readonly events: MemorySessionEvents,
  ) {
    this.budgets = memoryBudget(config);
    const host = {
      config,
      path,
      cwd: () => this.cwd,
      recallConfig: () => this.recallConfig,
      injectedIds: () => new Set(this.items.map((i) => i.id)),
      index: () => this.index(),
      team: () => this.team(),
      background: () => this.background(),
      warn: (text: string) => events.notice('warn', text),
    };
    this.recaller = new SessionRecall(host, opts.preset ?? config.defaultModel);
    // Which checkouts the user confirmed as their projects: scope matching asks it (project-trust.ts).
    useConfirmedProjects(path, { lock: lockTimingFromEnv(), notice: (text) => events.notice('warn', text) });
  }

  /** Memory is on in the config (not `memory: false`): the one place the session asks. */
  private get isOn(): boolean {
    return this.config.memory !== false;
  }

  /** What needs the memory files refuses, in one line, when memory is off in the config. */
  private assertOn(): void {
    if (!this.isOn) throw new AishError('memory is off in the config (memory: false) — remove that line to use :memory');
  }

  /** Memory goes to the model (not --no-memory, not `memory: false`). */
  get injecting(): boolean {
    return this.opts.inject !== false && this.isOn;
  }

  /** The items in the system prompt's [background] now. */
  get injected(): readonly MemoryItem[] {
    if (!this.recallChars) return this.items;
    return givingWay(
      this.items,
      this.recallChars,
      this.budgets.turn,
      storePinned((it) => this.isPinned(it)),
    );
  }

  /** `memory.injectMaxChars`, 0 when memory is off. */
  get budget(): number {
    return this.budgets.background;
  }

  get recallConfig(): RecallConfig | null {
    return this.injecting && this.config.memory && this.config.memory.recall.enabled ? this.config.memory.recall : null;
  }

  /** The preset `:memory summarize` uses, when the config names one. */
  get summarizerModel(): string | undefined {
    return this.config.memory ? this.config.memory.summarizerModel : undefined;
  }

  get cwd(): string {
    return this.opts.cwd?.() ?? process.cwd();
  }

  /** For the status line: the injected count, null while loading, 'off' when not injecting. */
  statusValue(): number | null | 'off' {
    return !this.injecting ? 'off' : this.loaded ? this.items.length : null;
  }

  /** The store, opened on first use. With --no-memory it still works; nothing is injected. */
  store(): MemoryStore {
    this.assertOn();
    // The store's notices (a file made private, a lock taken over) reach the user like any other.
    this.storeValue ??= MemoryStore.open(this.path, { lock: lockTimingFromEnv(), notice: (text) => this.events.notice('warn', text) });
    return this.storeValue;
  }

  /** Items read and written without the store (for code outside memory/: MCP, the memory tool, capture). */
  readonly writes = (): MemoryWrites => memoryWrites(this.store());

  /** The review inbox beside the memory file, opened on first use (refused, like store(), when memory is off). */
  inbox(): Inbox {
    this.assertOn();
    this.inboxValue ??= Inbox.open(this.path, { lock: lockTimingFromEnv(), notice: (text) => this.events.notice('warn', text) });
    return this.inboxValue;
  }

  /** Teammates' items in this project's `.aish/memory/` (memory.team decides which reach the model). */
  team(): TeamMemory {
    this.teamValue ??= new TeamMemory(this.config, this.path, { lock: lockTimingFromEnv(), notice: (t) => this.events.notice('warn', t) });
    return this.teamValue;
  }

  /** Candidates, team items and conflicts waiting for `:memory review`; null when memory is off. Cheap: stats unless a file changed. */
  inboxCount(): number | null {
    if (!this.isOn) return null;
    try {
      return this.inbox().pendingCount() + this.team().pending(this.cwd).length + this.conflictCount();
    } catch {
      return 0; // an unreadable inbox is reported by :memory review, not on every status draw
    }
  }

  /** Conflicts waiting for review, once the store is open (start-up reads only the index, never the whole file). */
  conflictCount(): number {
    try {
      return this.storeValue && this.isOn ? conflictCount(this.storeValue, this.inbox()) : 0;
    } catch {
      return 0; // as inboxCount: an unreadable inbox is reported by :memory review
    }
  }

  /** memory.jsonl through its index (memory/index/), in step with the file: appended lines laid over it, else rebuilt. */
  index(): MemoryIndex {
    this.assertOn();
    this.indexValue ??= new MemoryIndex(this.path);
    this.indexValue.refresh();
    return this.indexValue;
  }

  /** Item counts and skipped lines as a full read would report them. */
  counts(): ReturnType<MemoryIndex['counts']> {
    return this.index().counts();
  }

  /** Pinned (by its latest pin record, else its own field). */
  isPinned(item: MemoryItem): boolean {
    return this.index().isPinned(item);
  }

  /** Start-up memory (load, prune, select), done once; commands and the first model call wait for it. */
  ready(): Promise<void> {
    this.readyPromise ??= this.load();
    return this.readyPromise;
  }

  /** [background] as it would be chosen now, in aish's directory (what is left out: counted, listed on demand). */
  background(): IndexBackground {
    return this.index().read((ix) => indexBackground(ix, this.budget, this.cwd));
  }

  /**
   * After any memory change (or :cd): what the model sees next turn is picked again. `full` (after
   * `:memory inject`): the index is rebuilt from a full read whatever its checks say.
   */
  reselect(full = false): void {
    if (full && this.isOn) this.index().rebuild();
    this.items = this.injecting ? this.withTeam(this.background().items) : [];
    this.loaded = true;
    this.events.changed();
  }

  /** aish's directory changed: project items may now apply, or no longer. */
  dirChanged(): void {
    if (this.injecting && this.loaded) this.reselect();
  }

  /** The [recall] for a message and the turns before it: null when off, nothing is relevant, or it failed (said once). */
  async recall(query: readonly QueryPart[]): Promise<TurnRecall | null> {
    const turn = await this.recaller.recall(query);
    // When each item was last sent (`:memory review --stale`; written on the next tick); and
    // [background] gives way to this turn's [recall] (select.ts's givingWay).
    if (turn) noteRecalled(this.path, turn.items);
    this.recallChars = turn?.block.length ?? 0;
    return turn;
  }

  /** After start-up: what the first turn's recall needs, read now; embedding of new items begun (when configured). */
  prepareRecall(): void {
    this.recaller.prepare();
  }

  /** Hybrid recall's meaning side, made on first use; null when `memory.recall.embeddings` is not set. */
  embeddings(): Embeddings | null {
    return this.recaller.embeddings();
  }

  /** Embed what has no vector yet (when embeddings are configured); resolves when that background pass ends. */
  embedding(): Promise<void> {
    return this.recaller.embeddings()?.kick() ?? Promise.resolve();
  }

  /** Quitting: the background embedding stops (what it wrote stays; the next session goes on from there). */
  stopEmbedding(): void {
    this.recaller.close();
  }

  /** What would be sent for `text` (null: no message), and why the rest is not; with this project's accepted team items. */
  async plan(text: string | null): Promise<MemoryPlan> {
    const plan = await this.recaller.plan(text);
    return withTeamPlan(plan, this.team().accepted(this.cwd), this.index().size, text, this.config, this.budget, (it) => this.isPinned(it));
  }

  /** `:memory search`: active items ranked for `text`, best first; every project's, or (`here`) those that apply here. */
  async search(text: string, limit: number, o: { here?: boolean } = {}): Promise<Recalled[]> {
    await Promise.resolve();
    const applies = o.here ? scopeFilter(this.cwd) : () => true;
    const opts = { maxChars: Number.MAX_SAFE_INTEGER, minScore: 0, exclude: (it: MemoryItem) => !applies(it) };
    return this.recaller.choose([{ text, weight: 1 }], { ...opts, limit: Math.min(limit, Math.max(1, this.index().size)) }).items;
  }

  /** Active items to compare `text` with: all of a small store (`scanned`), else the index's best `limit` (no 100k scan on the loop). */
  async nearby(text: string, limit: number): Promise<{ items: readonly MemoryItem[]; scanned: boolean }> {
    if (this.index().size <= SCAN_LIMIT) return { items: this.store().reload().items, scanned: true };
    return { items: (await this.search(text, limit)).map((r) => r.item), scanned: false };
  }

  close(): void {
    this.recaller.close();
    this.storeValue?.close();
    this.indexValue?.close();
  }

  /** The store's [background] choice with this project's accepted team items merged in. */
  private withTeam(chosen: MemoryItem[]): MemoryItem[] {
    return withTeamBackground(chosen, this.team().accepted(this.cwd), this.budget, (it) => this.isPinned(it));
  }

  private async load(): Promise<void> {
    if (!this.injecting) return;
    try {
      const r = await loadStartupMemory(this.config, this.budget, this.index(), () => this.store(), this.cwd, this.opts.inspectHint);
      for (const n of r.notices) this.events.notice(n.kind, n.text);
      // Pruned: the selection is made again from the store, as after any change.
      if (r.pruned) this.reselect();
      else this.items = this.withTeam(r.injected);
      this.loaded = true;
    } catch (err) {
      this.events.notice('warn', `memory not loaded: ${formatError(err)}`);
    }
    this.events.changed();
  }
}
