/**
 * The [recall] block of one turn: the items most relevant to the message (and the last few turns)
 * that [background] does not already carry, best first, within `memory.recall.maxChars`. Pure: the
 * index and the items are given.
 */
import { fillBlock, itemTime, RECALL_HEADER, recallLine } from '../background/blocks';
import type { QueryPart, RecallSource } from './recall-rank';
import { IDEAL_CUT, MAX_ITEMS, PROJECT_BOOST, recallBudget } from './recall-cut';
import { favourTime, timeOf, withinPeriod } from './recall-time';
import type { MemoryItem } from '../types';

export interface Recalled {
  item: MemoryItem;
  /** Relevance × recency: the order. */
  score: number;
  /** BM25 relevance alone: what the threshold is about. */
  relevance: number;
  /** Not ranked: written next to this recalled item (recall-neighbours.ts). */
  neighbourOf?: number;
  /** The message's time words favoured it: written in the period it names, or says a time for a "when" question (recall-time.ts). */
  favoured?: 'period' | 'says a time';
}

export interface RecallOptions {
  now: number;
  maxChars: number;
  minScore: number;
  get: (id: number) => MemoryItem | undefined;
  /** Items that must not be recalled: in [background] already, or of another project. */
  exclude: (item: MemoryItem) => boolean;
  /**
   * Whether an item is live in the index and of no project, known without reading it; for such an
   * item `excludeId` is asked instead of `exclude`. A turn weighs many more items than it sends,
   * and reading each from memory.jsonl was most of a cold turn's time.
   */
  plain?: (id: number) => boolean;
  /** `exclude` of a plain item, from its id alone. */
  excludeId?: (id: number) => boolean;
  /** How many hits to consider (a turn: 50; the plan asks for all of them). */
  limit?: number;
  /**
   * A turn's [recall] (default: when no `limit` is given): hits are cut to the message's words
   * (recall-cut.ts) and at most `maxItems` are chosen. Otherwise a search (`:memory search`): every
   * match as relevant as RELATIVE_CUT of the best, in order.
   */
  turn?: boolean;
  /** At most this many items in a turn (`memory.recall.maxItems`; default MAX_ITEMS). */
  maxItems?: number;
}

export interface RecallChoice {
  items: Recalled[];
  /** Relevant enough, but the block was full. */
  overBudget: Recalled[];
}

/** A hit must be at least this fraction as relevant as the best one: a strong match keeps weak ones out. */
export const RELATIVE_CUT = 0.35;

/** How many matches of the message alone are considered before the earlier turns re-rank them. */
const CANDIDATES = 100;

/**
 * Query terms in more than 5% of the items (and more than 100 of them) are left out: at scale they
 * match most of the file, weigh little (idf < 3) and cost nearly all of a turn's recall time.
 */
export const commonOver = (size: number) => Math.max(100, size * 0.05);

/**
 * The message decides what may be recalled (relevance ≥ `minScore`, ≥ IDEAL_CUT of the message's
 * ideal score and ≥ RELATIVE_CUT of the best; nothing when its best match is one common word:
 * recall-cut.ts); the earlier turns only re-rank those, so an unrelated new message recalls
 * nothing however relevant the conversation before it was. Project items come first (PROJECT_BOOST).
 * Time words in the message favour items by time, or narrow to a period it names (recall-time.ts).
 */
export function chooseRecall(index: RecallSource, query: readonly QueryPart[], o: RecallOptions): RecallChoice {
  const [message, ...context] = query;
  if (!message) return { items: [], overBudget: [] };
  const usable = (id: number) => {
    if (o.excludeId && o.plain?.(id)) return !o.excludeId(id);
    const it = o.get(id);
    return it !== undefined && !o.exclude(it);
  };
  const turn = o.turn ?? o.limit === undefined;
  const maxItems = turn ? Math.max(1, Math.floor(o.maxItems ?? MAX_ITEMS)) : Infinity;
  const limit = o.limit ?? 50;
  // Time words favour items by when they were written ("in May", "last week"): the message's only.
  const time = turn ? timeOf(message.text, o.now) : null;
  const favour = time?.favour && { favour: time.favour };
  let primary = index.search([message], {
    now: o.now,
    limit: context.length ? Math.max(CANDIDATES, limit) : limit,
    minRelevance: o.minScore,
    accept: usable,
    maxDf: commonOver(index.size),
    projectBoost: PROJECT_BOOST,
    ...favour,
    ...(turn && { minCoverage: IDEAL_CUT, related: true }),
    // With earlier turns, more than one strong hit is ranked again; fewer need no order.
    ...(context.length && { reRanked: true }),
  });
  // The words recall nothing: a period the message names narrows instead (its hits are not re-ranked).
  const narrowed = !primary.length && time !== null;
  if (narrowed) primary = withinPeriod(index, message.text, time, { now: o.now, limit, accept: usable, projectBoost: PROJECT_BOOST });
  const best = primary.reduce((m, h) => Math.max(m, h.relevance), 0);
  const strong = primary.filter((h) => h.relevance >= best * RELATIVE_CUT);
  let hits = strong;
  if (context.length && strong.length > 1 && !narrowed) {
    const allowed = new Map(strong.map((h) => [h.id, h.relevance]));
    hits = index
      .search(query, {
        now: o.now,
        limit,
        accept: (id) => allowed.has(id),
        only: allowed,
        maxDf: commonOver(index.size),
        projectBoost: PROJECT_BOOST,
        related: turn,
        ...favour,
      })
      .map((h) => ({ ...h, relevance: allowed.get(h.id)! }));
  }
  const read: Recalled[] = [];
  for (const h of hits.slice(0, limit)) {
    const item = o.get(h.id);
    if (item) read.push({ item, score: h.score, relevance: h.relevance });
  }
  const found = favourTime(read, time, (r) => itemTime(r.item.ts));
  const { chosen, skipped } = fillBlock(
    RECALL_HEADER,
    found,
    turn ? recallBudget(o.maxChars, found.length) : o.maxChars,
    (r) => r.item,
    (r) => recallLine(r.item, o.now),
  );
  // The first maxItems that fit, as the plan's walk takes them; the rest had no room.
  return { items: chosen.slice(0, maxItems), overBudget: [...chosen.slice(maxItems), ...skipped] };
}
