/** Text renderings of `plan` and `search`, shared by `:memory` and `aish memory`. */
import { oneLine } from '../../util/text';
import { staleAge } from '../../util/time';
import { itemMarks, shownField } from '../format';
import type { MemoryPlan } from './plan';
import { RELATIVE_CUT, type Recalled } from './recall';
import { IDEAL_CUT } from './recall-cut';
import { ranksOf } from './recall-hybrid';
import { PERIOD_BOOST, WHEN_BOOST } from './recall-time';
import { periodText } from './time-words';
import type { MemoryItem } from '../types';

const score = (n: number) => n.toFixed(2);
const pct = (f: number) => `${Math.round(f * 100)}%`;

const NOTHING = {
  'no strong word': 'only numbers and one- or two-letter words',
  'only common words': 'only words most items hold',
  'one common word': 'one word many items hold',
  'one everyday word': 'one everyday word alone',
};

function label(it: MemoryItem & { author?: string }, isPinned: (it: MemoryItem) => boolean): string {
  const ref = it.author === undefined ? `#${it.id}` : `(team: ${shownField(it.author)})`;
  // An old item says so: months-old memory may no longer hold.
  const age = staleAge(it.ts, new Date());
  return `${ref} (${it.kind}) ${oneLine(it.content, 100)}${itemMarks(it, isPinned)}${age ? `  (${age})` : ''}`;
}

/** Hybrid recall: where the item stood in each ranking, and its fused score. */
function ranksText(r: Recalled): string {
  const k = ranksOf(r);
  if (!k) return '';
  return `  [words ${k.wordsRank === null ? '–' : `#${k.wordsRank}`}, meaning ${k.meaningRank === null ? '–' : `#${k.meaningRank}`}, fused ${k.fused.toFixed(4)}]`;
}

export interface PlanTextOptions {
  /** The message planned for; null: none. */
  query: string | null;
  isPinned: (it: MemoryItem) => boolean;
  /** Show at most this many left-out items (the rest are counted); absent: all. */
  maxLeftOut?: number;
}

export function formatPlan(plan: MemoryPlan, o: PlanTextOptions): string[] {
  const out = [`[background] ${plan.background.length} item${plan.background.length === 1 ? '' : 's'} (system prompt)`];
  for (const it of plan.background) out.push(`  ${label(it, o.isPinned)}`);
  if (o.query === null) out.push('[recall] no message to plan for — give one: plan TEXT');
  else {
    out.push(
      `[recall] ${plan.recall.length} item${plan.recall.length === 1 ? '' : 's'} for "${oneLine(o.query, 60)}" (score = relevance × recency)`,
    );
    if (plan.meaning) out.push(`  meaning (${plan.meaning.model}): ${plan.meaning.text}`);
    if (plan.time) out.push(`  time: ${timeText(plan)}`);
    for (const r of plan.recall)
      out.push(
        r.neighbourOf === undefined
          ? `  ${score(r.score)}  ${label(r.item, o.isPinned)}${ranksText(r)}${r.favoured ? `  [time: ${r.favoured}]` : ''}`
          : `  neighbour  ${label(r.item, o.isPinned)}  (written next to #${r.neighbourOf})`,
      );
    const c = plan.cutoff;
    if (c?.nothing)
      out.push(
        `  cutoff: ${plan.time?.narrowed ? 'its words alone recall nothing' : 'nothing is recalled'} — the message's best match is ${NOTHING[c.nothing]}`,
      );
    else if (c) {
      out.push(
        `  cutoff: relevance ≥ ${score(c.min)} (the largest of ${score(c.idealCut)}: ${pct(c.ideal > 0 ? c.idealCut / c.ideal : IDEAL_CUT)} of ${score(c.ideal)} for every word, ` +
          `${score(c.bestCut)}: ${pct(RELATIVE_CUT)} of the best, minScore ${c.minScore}), at most ${c.maxItems} items`,
      );
    }
  }
  const total = plan.leftOutCounts.reduce((n, [, c]) => n + c, 0);
  const summary = plan.leftOutCounts.map(([reason, n]) => `${reason} ${n}`).join(', ');
  out.push(`left out: ${total}${summary ? ` (${summary})` : ''}`);
  const shown = plan.leftOut(o.maxLeftOut);
  for (const l of shown) {
    const it = plan.item(l.id);
    if (it) out.push(`  ${l.reason.padEnd(15)}  ${label(it, o.isPinned)}`);
  }
  if (shown.length < total) out.push(`  … and ${total - shown.length} more (aish memory plan --json lists every one)`);
  return out;
}

export function formatSearch(hits: readonly Recalled[], isPinned: (it: MemoryItem) => boolean): string[] {
  return hits.map((h) => `${score(h.score).padStart(6)}  ${label(h.item, isPinned)}`);
}

/** `--json` of search: best first. */
export function searchJson(hits: readonly Recalled[], isPinned: (it: MemoryItem) => boolean): object[] {
  return hits.map((h) => ({
    id: h.item.id,
    score: Math.round(h.score * 1000) / 1000,
    relevance: Math.round(h.relevance * 1000) / 1000,
    kind: h.item.kind,
    content: h.item.content,
    ts: h.item.ts,
    ...(isPinned(h.item) && { pinned: true }),
    ...(h.item.scope && { scope: h.item.scope }),
  }));
}

/** `"in may" → May (any year): items written then score ×2; 3 recalled items favoured`. */
function timeText(plan: MemoryPlan): string {
  const t = plan.time!;
  const parts: string[] = [];
  if (t.periods.length) parts.push(`${t.periods.map(periodText).join(', ')}: items written then score ×${PERIOD_BOOST}`);
  if (t.when) parts.push(`asks when: items that say a time (a date, "yesterday") move up, ×${WHEN_BOOST}`);
  if (t.narrowed) parts.push('its words alone recall nothing: the items written then, ranked by its other words');
  const n = plan.recall.filter((r) => r.favoured).length;
  return `"${t.said.map((w) => shownField(w)).join('", "')}" → ${parts.join('; ')}; ${n} recalled item${n === 1 ? '' : 's'} favoured`;
}
