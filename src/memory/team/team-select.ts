/**
 * Accepted team items in what the model sees, beside the store's own: [background] chosen again
 * over the store's choice and the team items by the same rule (background-order.ts, within the budget), and [recall] ranked over the team items with the store's BM25 arithmetic and
 * merged with the store's hits by score. Team items are few; nothing here touches the index.
 */
import type { AishConfig } from '../../config/types';
import { isWeakTerm, terms } from '../../util/terms';
import { fillBlock, RECALL_HEADER, recallLine } from '../background/blocks';
import { recallText } from '../index/build';
import { rankLocal, type LocalLists } from '../index/rank';
import { isoTime } from '../log/parse';
import { chooseRecall, type Recalled, type RecallOptions } from '../recall/recall';
import { queryWeights, type QueryPart, type RecallHit, type RecallSource, type SearchOptions } from '../recall/recall-rank';
import type { MemoryPlan } from '../recall/plan';
import { selectBackground } from '../background/select';
import type { MemoryItem } from '../types';
import type { TeamItem } from './team-file';

/**
 * A teammate's time is not part of what was accepted: one that has not happened yet counts as no
 * time (like an unreadable one), so an item dated ahead cannot stay first for ever.
 */
function teamTime(it: Pick<MemoryItem, 'ts'>, now: number): number {
  const t = isoTime(it.ts);
  return t > now ? 0 : t;
}

/** Pinned as the store says: a team item (id ≤ 0) is never pinned, whatever its own field says. */
export function storePinned(isPinned: (it: MemoryItem) => boolean): (it: MemoryItem) => boolean {
  return (it) => it.id > 0 && isPinned(it);
}

/** The store's [background] choice with the accepted team items merged in. */
export function withTeamBackground(
  chosen: MemoryItem[],
  team: readonly TeamItem[],
  maxChars: number,
  isPinned: (it: MemoryItem) => boolean,
): MemoryItem[] {
  if (team.length === 0) return chosen;
  const now = Date.now();
  const time = (it: MemoryItem) => teamTime(it, now);
  const all = [...chosen, ...team].sort((a, b) => time(b) - time(a) || b.id - a.id);
  // The store's pinned are in `chosen` most recently pinned first (own, then received): that order is kept.
  // Team items count as received (background-order.ts): they come after the user's own pins and prefs.
  const place = new Map(chosen.map((it, i) => [it.id, -i]));
  const pinTime = (it: MemoryItem) => place.get(it.id) ?? -Infinity;
  return selectBackground(all, { maxChars, isPinned: storePinned(isPinned), pinTime }).items;
}

/** BM25 over the team items, the store's live count added to theirs so a term's weight is of the same order as in the store. */
class TeamSearch implements RecallSource {
  private readonly docs: Array<{ item: TeamItem; tf: Map<string, number>; len: number }>;
  private readonly total: number;

  constructor(
    items: readonly TeamItem[],
    private readonly storeSize: number,
  ) {
    this.docs = items.map((item) => {
      const words = terms(recallText(item));
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      return { item, tf, len: words.length };
    });
    this.total = this.docs.reduce((n, d) => n + d.len, 0);
  }

  get size(): number {
    return this.docs.length;
  }

  search(query: readonly QueryPart[], opts: SearchOptions): RecallHit[] {
    if (this.docs.length === 0) return [];
    const dict = new Map<string, number>();
    const lists = new Map<number, { docs: number[]; freqs: number[] }>();
    for (const part of query)
      for (const w of terms(part.text)) {
        if (dict.has(w)) continue;
        const list = { docs: [] as number[], freqs: [] as number[] };
        this.docs.forEach((d, i) => {
          const f = d.tf.get(w);
          if (!f) return;
          list.docs.push(i);
          list.freqs.push(f);
        });
        if (list.docs.length === 0) continue;
        lists.set(dict.size, list);
        dict.set(w, dict.size);
      }
    const live = this.docs.length + this.storeSize;
    const x: LocalLists = {
      lists,
      lens: this.docs.map((d) => d.len),
      live,
      totalLen: Math.max(1, Math.round((this.total / this.docs.length) * live)),
      weak: new Set([...dict].filter(([w]) => isWeakTerm(w)).map(([, t]) => t)),
      idOf: (l) => this.docs[l]!.item.id,
      timeOf: (l) => teamTime(this.docs[l]!.item, Date.now()),
    };
    return rankLocal(x, queryWeights(dict, query), opts);
  }
}

/** The store's [recall] hits and the team's, merged by score within the block's budget. */
export function withTeamRecall(
  local: readonly Recalled[],
  team: readonly TeamItem[],
  storeSize: number,
  query: readonly QueryPart[],
  o: Omit<RecallOptions, 'get'>,
): Recalled[] {
  if (team.length === 0) return [...local];
  const byId = new Map(team.map((t) => [t.id, t as MemoryItem]));
  const t = chooseRecall(new TeamSearch(team, storeSize), query, { ...o, get: (id) => byId.get(id) });
  if (t.items.length === 0) return [...local];
  const all = [...local, ...t.items].sort((a, b) => b.score - a.score);
  return fillBlock(
    RECALL_HEADER,
    all,
    o.maxChars,
    (r) => r.item,
    (r) => recallLine(r.item, o.now),
  ).chosen;
}

/** `:memory plan` with the team items as a turn would send them: in [background], and in [recall] for `text`. */
export function withTeamPlan(
  plan: MemoryPlan,
  team: readonly TeamItem[],
  storeSize: number,
  text: string | null,
  config: AishConfig,
  budget: number,
  isPinned: (it: MemoryItem) => boolean,
): MemoryPlan {
  if (team.length === 0 || !config.memory) return plan;
  const background = withTeamBackground(plan.background, team, budget, isPinned);
  if (text === null) return { ...plan, background };
  const inBg = new Set(background.map((i) => i.id));
  const r = config.memory.recall;
  const o = { now: Date.now(), maxChars: r.maxChars, minScore: r.minScore, exclude: (it: MemoryItem) => inBg.has(it.id) };
  return { ...plan, background, recall: withTeamRecall(plan.recall, team, storeSize, [{ text, weight: 1 }], o) };
}
