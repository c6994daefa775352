/**
 * The plan's [recall]: what chooseRecall picks for one message with every hit considered, and
 * every relevant hit the block had no room for. Scope and line length come from the index, so
 * only the chosen items are read from memory.jsonl — not each of tens of thousands of hits.
 */
import { ageChars, itemTime, RECALL_HEADER, recallLine } from '../background/blocks';
import { scopeMatcher } from '../project/project';
import { commonOver, RELATIVE_CUT, type Recalled, type RecallOptions } from '../recall/recall';
import { coverageOf, idealCut as idealShare, MAX_ITEMS, PROJECT_BOOST, recallBudget, type NothingReason } from '../recall/recall-cut';
import { favourTime, timeOf, withinPeriod, type TimeOf } from '../recall/recall-time';
import type { TimeReading } from '../recall/time-words';
import type { MemoryItem } from '../types';
import type { MemoryIndex } from './memory-index';
import { ORDER_BLOCK } from './layout';
import { rankLocal } from './rank';
import { relevancesOf } from '../recall/recall-related';
import { IndexSearch } from './search';
import { holdersFirst } from './search-held';

export interface PlanRecall {
  items: Recalled[];
  /** Relevant enough, but the block was full (of text, or of `maxItems`): id → relevance. */
  overBudget: Map<number, number>;
  /** id → its places in the rankings, for the hits ranked (the chosen, and those ranked above them). */
  ranks: Map<number, Ranks>;
  /** The cut the message's words set (absent: no word of it is in any item). */
  cutoff?: RecallCutoff;
  /** The time the message asks about (recall-time.ts; absent: none). */
  time?: TimeReading;
}

/** An item's place (1 = first) in each ranking: `words`, recall's BM25 × recency over the message's words. */
export interface Ranks {
  words?: number;
}

/** What an item's relevance had to reach, and why. */
export interface RecallCutoff {
  /** The relevance a hit needed: the largest of the three below. */
  min: number;
  /** The message's ideal score (recall-cut.ts) and IDEAL_CUT of it. */
  ideal: number;
  idealCut: number;
  /** The best hit's relevance and RELATIVE_CUT of it. */
  best: number;
  bestCut: number;
  minScore: number;
  maxItems: number;
  /** Set when the message's words allow no recall at all. */
  nothing?: NothingReason;
}

interface PlanRecallOptions extends Pick<RecallOptions, 'now' | 'maxChars' | 'minScore' | 'maxItems'> {
  /** Ids in [background] (not recalled again). */
  inBackground: Set<number>;
  cwd: string;
}

export function planRecall(ix: MemoryIndex, text: string, o: PlanRecallOptions): PlanRecall {
  const time = timeOf(text, o.now);
  const out = planWords(ix, text, o, time);
  if (!time) return out;
  out.time = time.reading;
  return out.items.length || !time.favour ? out : narrowed(ix, text, o, time, out);
}

function planWords(ix: MemoryIndex, text: string, o: PlanRecallOptions, time: TimeOf | null): PlanRecall {
  const h = ix.header;
  const out: PlanRecall = { items: [], overBudget: new Map(), ranks: new Map() };
  const search = new IndexSearch(ix);
  const found = h ? search.local([{ text, weight: 1 }], commonOver(ix.size), true) : null;
  if (!h || !found) return out;
  const inScope = scopeMatcher(o.cwd);
  const scopeApplies = h.scopes.map(inScope);
  const tail = ix.tail;
  const bgSlots = new Set([...o.inBackground].map((id) => ix.slotOf(id)));
  // Recallable here: not forgotten, not in [background], not another project's. Scopes are read
  // from the index only when it has any (most stores have no project items).
  const slotUsable = (slot: number): boolean => {
    if (slot < 0 || tail?.dead.has(slot) || bgSlots.has(slot)) return false;
    if (h.scopes.length === 0) return true;
    const scope = ix.lineAt(slot)[1];
    return scope === 0 || scopeApplies[scope - 1] === true;
  };
  const itemUsable = (t: MemoryItem) => !o.inBackground.has(t.id) && (t.scope === undefined || inScope(t.scope));
  const usable = (id: number): boolean => {
    const t = tail?.state.get(id);
    return t ? itemUsable(t) : slotUsable(ix.slotOf(id));
  };
  // What a usable item's [recall] line costs: `- #12 (kind) …` is `- (kind) …` and the id, and
  // the age an old one shows (the index stores lengths without it).
  const lineOf = (id: number): number => {
    const t = tail?.state.get(id);
    if (t) return recallLine(t, o.now).length;
    const slot = ix.slotOf(id);
    return ix.lineAt(slot)[0] + String(id).length + 2 + ageChars(ix.timeAt(slot), o.now);
  };

  // Every hit that may be recalled, by relevance alone (no time read): the best one sets the cut.
  const { docs, weights, where } = found;
  const { acc: rel, exact } = relevancesOf(found);
  const maxItems = Math.max(1, Math.floor(o.maxItems ?? MAX_ITEMS));
  const coverage = coverageOf(found, exact, ix.size, search.wordsOf(docs));
  const idealCut = coverage.ideal * idealShare(found.strong);
  const floor = Math.max(o.minScore, idealCut, Number.MIN_VALUE);
  const hits: number[] = [];
  let best = 0;
  for (let l = 0; l < rel.length; l++) {
    if (!(rel[l]! >= floor) || !(where[l]! >= 0 ? slotUsable(where[l]!) : itemUsable(tail!.items[-1 - where[l]!]!))) continue;
    hits.push(l);
    best = Math.max(best, rel[l]!);
  }
  const cut = coverage.nothing ? Infinity : Math.max(floor, best * RELATIVE_CUT);
  out.cutoff = {
    min: Math.max(o.minScore, idealCut, best * RELATIVE_CUT),
    ideal: coverage.ideal,
    idealCut,
    best,
    bestCut: best * RELATIVE_CUT,
    minScore: o.minScore,
    maxItems,
    ...(coverage.nothing && { nothing: coverage.nothing }),
  };
  if (coverage.nothing) return out;
  let cleared = 0;
  for (const l of hits) if (rel[l]! >= cut) cleared++;
  const maxChars = recallBudget(o.maxChars, cleared);
  // fillBlock's rule, with lengths known unread, over the best by score: once no line can fit (not
  // even the index's shortest), the rest of the strong hits are all left out for room, whatever
  // their order — so only as many are ranked (and their times read) as the block takes.
  let shortest = Infinity;
  for (const len of ix.sidecar!.u32('omin', 0, Math.ceil(h.n / ORDER_BLOCK))) shortest = Math.min(shortest, len + 4); // `#N ` and the newline
  for (const t of tail?.items ?? []) shortest = Math.min(shortest, recallLine(t, o.now).length + 1);
  for (let k = 16; ; k *= 4) {
    // As a turn's search orders them (search-held.ts's holdersFirst).
    const favour = time?.favour && { favour: time.favour };
    const ranked = rankLocal(
      docs,
      weights,
      { now: o.now, limit: k, minRelevance: cut, accept: usable, projectBoost: PROJECT_BOOST, ...favour },
      rel,
    );
    const top = timed(holdersFirst(ix, ranked, found.dropped), time, ix);
    out.items = [];
    let used = RECALL_HEADER.length;
    for (const [r, hit] of top.entries()) {
      out.ranks.set(hit.id, { words: r + 1 });
      if (out.items.length === maxItems) break;
      const room = maxChars - used - 1;
      const cost = room < 10 ? Infinity : lineOf(hit.id) + 1;
      if (cost > room + 1) continue;
      used += cost;
      // Usable, so an item of the index or its tail (a record not where the index says throws, and rebuilds).
      const item = hit.item ?? ix.get(hit.id)!;
      out.items.push({ item, score: hit.score, relevance: hit.relevance, ...(hit.favoured && { favoured: hit.favoured }) });
    }
    const room = maxChars - used - 1;
    if (ranked.length < k || out.items.length === maxItems || room < 10 || shortest > room + 1) break;
  }
  const chosen = new Set(out.items.map((r) => r.item.id));
  for (const l of hits) {
    if (rel[l]! < cut) continue;
    const id = docs.idOf(l);
    if (!chosen.has(id)) out.overBudget.set(id, rel[l]!);
  }
  return out;
}

type TimedHit = { id: number; score: number; relevance: number; item?: MemoryItem; favoured?: Recalled['favoured'] };

/** The hits as a turn orders and marks them for the message's time words (recall.ts): read only when it has any. */
function timed(hits: readonly TimedHit[], time: TimeOf | null, ix: MemoryIndex): TimedHit[] {
  if (!time) return [...hits];
  const read: Array<Recalled & { id: number }> = [];
  for (const h of hits) {
    const item = ix.get(h.id);
    if (item) read.push({ id: h.id, item, score: h.score, relevance: h.relevance });
  }
  return favourTime(read, time, (r) => itemTime(r.item.ts));
}

/** The words recall nothing and the message names a period: what a turn sends instead (recall.ts, withinPeriod). */
function narrowed(ix: MemoryIndex, text: string, o: PlanRecallOptions, time: TimeOf, words: PlanRecall): PlanRecall {
  const usable = (id: number) => !o.inBackground.has(id) && (ix.get(id) ?? null) !== null && scopeOk(ix.get(id)!, o.cwd);
  const hits = withinPeriod(new IndexSearch(ix), text, time, { now: o.now, limit: 50, accept: usable, projectBoost: PROJECT_BOOST });
  const best = hits.reduce((m, x) => Math.max(m, x.relevance), 0);
  const strong = hits.filter((x) => x.relevance >= best * RELATIVE_CUT);
  const maxChars = recallBudget(o.maxChars, strong.length);
  const maxItems = Math.max(1, Math.floor(o.maxItems ?? MAX_ITEMS));
  const out: PlanRecall = { ...words, items: [], overBudget: new Map(), ranks: new Map(), time: { ...time.reading, narrowed: true } };
  let used = RECALL_HEADER.length;
  for (const [r, x] of strong.entries()) {
    out.ranks.set(x.id, { words: r + 1 });
    const item = ix.get(x.id)!;
    const cost = recallLine(item, o.now).length + 1;
    if (out.items.length === maxItems || used + cost > maxChars) {
      out.overBudget.set(x.id, x.relevance);
      continue;
    }
    used += cost;
    out.items.push({ item, score: x.score, relevance: x.relevance, favoured: 'period' });
  }
  return out;
}

function scopeOk(it: MemoryItem, cwd: string): boolean {
  return it.scope === undefined || scopeMatcher(cwd)(it.scope);
}
