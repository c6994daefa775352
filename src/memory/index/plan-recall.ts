/**
 * The plan's [recall]: what chooseRecall picks for one message with every hit considered, and
 * every relevant hit the block had no room for. Scope and line length come from the index, so
 * only the chosen items are read from memory.jsonl — not each of tens of thousands of hits.
 */
import { RECALL_HEADER, recallLine } from '../blocks';
import { insideScope } from '../project';
import { commonOver, RELATIVE_CUT, type Recalled } from '../recall';
import { realPath } from '../../util/paths';
import type { MemoryIndex } from './memory-index';
import { IndexSearch } from './search';

export interface PlanRecall {
  items: Recalled[];
  /** Relevant enough, but the block was full: id → relevance. */
  overBudget: Map<number, number>;
}

export interface PlanRecallOptions {
  now: number;
  maxChars: number;
  minScore: number;
  /** Ids in [background] (not recalled again). */
  inBackground: Set<number>;
  cwd: string;
}

export function planRecall(ix: MemoryIndex, text: string, o: PlanRecallOptions): PlanRecall {
  const h = ix.header;
  const out: PlanRecall = { items: [], overBudget: new Map() };
  if (!h) return out;
  const here = realPath(o.cwd);
  const scopeApplies = h.scopes.map((s) => insideScope(s, here));
  const tail = ix.tail;
  // Recallable here: not forgotten, not in [background], not another project's. Scopes are read
  // from the index only when it has any (most stores have no project items).
  const usable = (id: number): boolean => {
    if (o.inBackground.has(id)) return false;
    const t = tail?.state.get(id);
    if (t) return t.scope === undefined || insideScope(t.scope, here);
    const slot = ix.slotOf(id);
    if (slot < 0 || tail?.dead.has(slot)) return false;
    if (h.scopes.length === 0) return true;
    const scope = ix.lineAt(slot)[1];
    return scope === 0 || scopeApplies[scope - 1] === true;
  };
  // What a usable item's [recall] line costs: `- #12 (kind) …` is `- (kind) …` and the id.
  const lineOf = (id: number): number => {
    const t = tail?.state.get(id);
    return t ? recallLine(t).length : ix.lineAt(ix.slotOf(id))[0] + String(id).length + 2;
  };
  const hits = new IndexSearch(ix).search([{ text, weight: 1 }], {
    now: o.now,
    limit: Math.max(1, ix.size),
    minRelevance: o.minScore,
    accept: usable,
    maxDf: commonOver(ix.size),
  });
  const best = hits.reduce((m, x) => Math.max(m, x.relevance), 0);
  // fillBlock's rule, with the length known unread: one that does not fit is skipped, the next tried.
  let used = RECALL_HEADER.length;
  for (const hit of hits) {
    if (hit.relevance < best * RELATIVE_CUT) continue;
    const room = o.maxChars - used - 1;
    const cost = room < 10 ? Infinity : lineOf(hit.id) + 1;
    if (cost > room + 1) {
      out.overBudget.set(hit.id, hit.relevance);
      continue;
    }
    used += cost;
    // Accepted above, so an item of the index or its tail (a record not where the index says throws, and rebuilds).
    out.items.push({ item: ix.get(hit.id)!, score: hit.score, relevance: hit.relevance });
  }
  return out;
}
