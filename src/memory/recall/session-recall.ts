/**
 * One session's per-turn [recall] and its plan: the words ranking over the index (recall.ts), and,
 * when `memory.recall.embeddings` names a server, the meaning ranking (embed/) fused with it by
 * reciprocal rank (recall-fuse.ts). Without embeddings nothing of the meaning side is made or
 * loaded. The session (session.ts) owns the store, the index and [background]; this file decides
 * what a message recalls.
 */
import { resolvePreset } from '../../broker/presets';
import type { AishConfig, EmbeddingsConfig, RecallConfig } from '../../config/types';
import { EMBED_MIN_SIMILARITY, EMBED_TIMEOUT_MS } from '../../config/validate-embeddings';
import { formatError } from '../../util/errors';
import { recallBlock } from '../background/blocks';
import { EmbedClient } from '../embed/client';
import { Embeddings, type ItemSource } from '../embed/embeddings';
import { vectorsPath } from '../embed/vector-file';
import type { IndexBackground } from '../index/background';
import type { MemoryIndex } from '../index/memory-index';
import { planRecall } from '../index/plan-recall';
import { IndexSearch } from '../index/search';
import { buildPlan, type MemoryPlan } from './plan';
import { withMeaningPlan } from './plan-meaning';
import { scopeFilter } from '../project/project';
import { chooseRecall, type Recalled, type RecallChoice, type RecallOptions } from './recall';
import { fuseRecall, type MeaningNote } from './recall-hybrid';
import { withNeighbours } from './recall-neighbours';
import { loadRelated } from './related-words';
import { MAX_ITEMS } from './recall-cut';
import type { QueryPart } from './recall-rank';
import type { TeamMemory } from '../team/team-memory';
import { withTeamRecall } from '../team/team-select';
import type { MemoryItem } from '../types';

export interface TurnRecall {
  /** The [recall] block to attach to the user's message. */
  block: string;
  items: Recalled[];
  /** How the meaning ranking took part (absent: no embeddings configured). */
  meaning?: MeaningNote;
}

/** What recall needs of its session. */
export interface RecallHost {
  readonly config: AishConfig;
  readonly path: string;
  cwd(): string;
  recallConfig(): RecallConfig | null;
  /** Ids in [background] now (not recalled again). */
  injectedIds(): Set<number>;
  index(): MemoryIndex;
  team(): TeamMemory;
  background(): IndexBackground;
  warn(text: string): void;
}

export class SessionRecall {
  /** undefined: not made yet; null: no embeddings (not configured, or their preset unusable). */
  private meaningValue: Embeddings | null | undefined;
  private warned = false;

  constructor(
    private readonly host: RecallHost,
    /** The preset aish started with: the embeddings server's when they name none. */
    private readonly startPreset: string,
  ) {}

  private get embeddingsConfig(): EmbeddingsConfig | undefined {
    return this.host.config.memory ? this.host.config.memory.recall.embeddings : undefined;
  }

  /** The meaning side, made on first use; null when not configured. */
  embeddings(): Embeddings | null {
    if (this.meaningValue !== undefined) return this.meaningValue;
    const e = this.embeddingsConfig;
    if (!e) return (this.meaningValue = null);
    try {
      const name = e.preset ?? (this.startPreset in this.host.config.models ? this.startPreset : this.host.config.defaultModel);
      const client = new EmbedClient(resolvePreset(this.host.config, name), e.model, e.dimensions);
      this.meaningValue = new Embeddings(client, vectorsPath(this.host.path), this.items(), (t) => this.host.warn(t));
    } catch (err) {
      this.host.warn(`memory embeddings off: ${formatError(err)}`);
      this.meaningValue = null;
    }
    return this.meaningValue;
  }

  /** Active items through the index, for the background pass. */
  private items(): ItemSource {
    let gen = 0;
    let seen: unknown = null;
    const generation = () => {
      const h = this.host.index().header;
      if (h !== seen) [seen, gen] = [h, gen + 1];
      return gen;
    };
    return {
      ids: () =>
        this.host.index().read((ix) => {
          const out: number[] = [];
          if (!ix.header) return out;
          const ids = ix.ids();
          const dead = ix.tail?.dead;
          for (let s = 0; s < ids.length; s++) if (!dead?.has(s)) out.push(ids[s]!);
          for (const it of ix.tail?.items ?? []) out.push(it.id);
          return out.sort((a, b) => a - b);
        }),
      getMany: (ids) =>
        this.host.index().read((ix) => {
          const out: MemoryItem[] = [];
          for (const id of ids) {
            const it = ix.get(id);
            if (it) out.push(it);
          }
          return out;
        }),
      generation,
      stamp: () => this.host.index().read((ix) => `${generation()}:${ix.counts().maxId}:${ix.size}`),
    };
  }

  /** After start-up: the index's lengths read, the SDK loaded, and embedding of what has no vector yet begun. */
  prepare(): void {
    if (!this.host.recallConfig()) return;
    try {
      const ix = this.host.index();
      if (ix.header) ix.lens();
      loadRelated();
    } catch {
      // the turn tries again, and says so if it fails
    }
    void this.embeddings()?.kick();
  }

  /** The [recall] for a message and the turns before it: null when off, nothing is relevant, or it failed (said once). */
  async recall(query: readonly QueryPart[]): Promise<TurnRecall | null> {
    const cfg = this.host.recallConfig();
    if (!cfg || cfg.maxChars <= 0) return null;
    try {
      const bg = this.host.injectedIds();
      const applies = scopeFilter(this.host.cwd());
      const o = {
        maxChars: cfg.maxChars,
        minScore: cfg.minScore,
        ...(cfg.maxItems !== undefined && { maxItems: cfg.maxItems }),
        exclude: (it: MemoryItem) => bg.has(it.id) || !applies(it),
        // An item of no project applies everywhere.
        excludeId: (id: number) => bg.has(id),
      };
      const { items: local, meaning } = await this.hybrid(query, o, true);
      const now = Date.now();
      const ranked = withTeamRecall(local, this.host.team().accepted(this.host.cwd()), this.host.index().size, query, { ...o, now });
      const items = withNeighbours(ranked, { ...o, now, get: (id) => this.host.index().read((ix) => ix.get(id)) });
      if (!items.length) return null;
      const sent = items.map((x) => x.item);
      return { block: recallBlock(sent, now), items, ...(meaning && { meaning }) };
    } catch (err) {
      if (!this.warned) this.host.warn(`memory recall skipped: ${formatError(err)} — this turn is sent without [recall]`);
      this.warned = true;
      return null;
    }
  }

  /** The words ranking, fused with the meaning ranking of the message when embeddings are configured. */
  private async hybrid(
    query: readonly QueryPart[],
    o: Omit<RecallOptions, 'now' | 'get'>,
    /** A turn (embedding goes on in the background), not a plan. */
    background: boolean,
  ): Promise<{ items: Recalled[]; meaning?: MeaningNote }> {
    const words = this.choose(query, o);
    const emb = this.embeddings();
    const message = query[0];
    if (!emb || !message) return { items: words.items };
    const e = this.embeddingsConfig!;
    const usable = (id: number) => {
      const it = this.host.index().read((ix) => ix.get(id));
      return it !== undefined && !o.exclude(it);
    };
    const ranked = await emb.rank(message.text, {
      timeoutMs: e.timeoutMs ?? EMBED_TIMEOUT_MS,
      minSimilarity: e.minSimilarity ?? EMBED_MIN_SIMILARITY,
      limit: MEANING_LIMIT,
      usable,
      background,
    });
    const get = (id: number) => this.host.index().read((ix) => ix.get(id));
    // memory.recall.maxItems when the config has it (the words ranking's cap), else MAX_ITEMS.
    const maxItems = (this.host.config.memory ? this.host.config.memory.recall.maxItems : undefined) ?? MAX_ITEMS;
    const total = this.host.index().size;
    return fuseRecall(words, ranked, { maxChars: o.maxChars, maxItems, get, model: e.model, embedded: emb.embedded, total });
  }

  /** What would be sent for `text` (null: no message), and why the rest is not. */
  async plan(text: string | null): Promise<MemoryPlan> {
    const bg = this.host.background();
    // Read when a left-out item is shown; one that cannot be read any more is not shown.
    const get = (id: number) => this.host.index().read((ix) => ix.get(id));
    const memory = this.host.config.memory;
    if (text === null || !memory) return buildPlan(bg, null, get);
    const { maxChars, minScore, maxItems } = memory.recall;
    const inBackground = new Set(bg.items.map((i) => i.id));
    const applies = scopeFilter(this.host.cwd());
    const o = { now: Date.now(), maxChars, minScore, inBackground, cwd: this.host.cwd(), ...(maxItems !== undefined && { maxItems }) };
    const ranked = this.host.index().read((ix) => planRecall(ix, text, o));
    const exclude = (it: MemoryItem) => inBackground.has(it.id) || !applies(it);
    const recalled = { ...ranked, items: withNeighbours(ranked.items, { get, exclude, maxChars, now: o.now }) };
    const plan = buildPlan(bg, recalled, get);
    if (!this.embeddings()) return plan;
    const hybrid = await this.hybrid(
      [{ text, weight: 1 }],
      { maxChars, minScore, exclude, ...(maxItems !== undefined && { maxItems }) },
      false,
    );
    return withMeaningPlan(plan, hybrid.items, hybrid.meaning, (id) => recalled.overBudget.has(id));
  }

  /** chooseRecall over the index, now. */
  choose(query: readonly QueryPart[], o: Omit<RecallOptions, 'now' | 'get'>): RecallChoice {
    return this.host
      .index()
      .read((ix) =>
        chooseRecall(new IndexSearch(ix), query, { ...o, now: Date.now(), get: (id) => ix.get(id), plain: (id) => plainIn(ix, id) }),
      );
  }

  close(): void {
    this.meaningValue?.close();
  }
}

/** Whether an item is live in the index and of no project (read from the index, not memory.jsonl). */
function plainIn(ix: MemoryIndex, id: number): boolean {
  const h = ix.header;
  const s = h ? ix.slotOf(id) : -1;
  if (!h || s < 0 || ix.tail?.dead.has(s)) return false;
  return h.scopes.length === 0 || ix.lineAt(s)[1] === 0;
}

/** How many items the meaning ranking offers to the fusion. */
const MEANING_LIMIT = 10;
