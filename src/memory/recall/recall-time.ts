/**
 * How a message's time words (time-words.ts) move recall: items written in a period it names
 * score PERIOD_BOOST times more, and for a "when" question the hits whose text says a time
 * (a date, "yesterday", "last week") come WHEN_BOOST times higher. Both only re-order what the
 * message's words found: the cut stays the words' (recall-cut.ts). When the words find nothing,
 * a period narrows instead (withinPeriod).
 */
import type { MemoryItem } from '../types';
import type { RecallHit, RecallSource, SearchOptions, TimeFavour } from './recall-rank';
import { inPeriod, readTime, saysTime, withoutTime, type TimeReading } from './time-words';

/** An item written in the period a message names scores this many times more. */
export const PERIOD_BOOST = 2;

/** For a "when" question, a hit whose text says a time scores this many times more. */
export const WHEN_BOOST = 1.25;

/** The time words of a message at `now`, and what they favour in the ranking (null: none). */
export interface TimeOf {
  reading: TimeReading;
  /** Absent: the message asks "when" but names no period. */
  favour?: TimeFavour;
}

export function timeOf(text: string, now: number): TimeOf | null {
  const reading = readTime(text, now);
  if (!reading) return null;
  const ps = reading.periods;
  if (!ps.length) return { reading };
  return { reading, favour: { factor: PERIOD_BOOST, holds: (t) => ps.some((p) => inPeriod(p, t)) } };
}

/**
 * Hits marked with what their time favoured (`favoured`), and for a "when" question re-ordered: a
 * hit whose text says a time moves up past the hits before it that do not, while its score ×
 * WHEN_BOOST beats theirs (the order is otherwise kept: the words ranking's, holders first).
 */
/** A ranked hit (recall.ts's Recalled), as far as time needs it. */
interface Timed {
  item: MemoryItem;
  score: number;
  favoured?: 'period' | 'says a time';
}

export function favourTime<R extends Timed>(hits: readonly R[], time: TimeOf | null, itemTime: (r: R) => number): R[] {
  if (!time) return [...hits];
  const { reading, favour } = time;
  const out: { r: R; says: boolean }[] = [];
  for (const h of hits) {
    const period = favour?.holds(itemTime(h)) === true;
    const says = reading.when && saysTime(h.item.content);
    const r: R = period || says ? { ...h, favoured: period ? 'period' : 'says a time' } : h;
    let at = out.length;
    if (says) while (at > 0 && !out[at - 1]!.says && out[at - 1]!.r.score < h.score * WHEN_BOOST) at--;
    out.splice(at, 0, { r, says });
  }
  return out.map((o) => o.r);
}

/**
 * A message that names a period and whose words recall nothing ("What did Caroline do in July?":
 * its best match is one word half the items hold): the items written in the period, ranked by the
 * message's other words — none left out as common and no minimum relevance, since the period
 * makes them few (a word in half the items weighs little however telling it is in one month).
 * The search's own hits, best first.
 */
export function withinPeriod(
  index: RecallSource,
  text: string,
  time: TimeOf,
  o: Pick<SearchOptions, 'now' | 'limit' | 'accept' | 'projectBoost'>,
): RecallHit[] {
  const holds = time.favour?.holds;
  const rest = withoutTime(text, time.reading);
  if (!holds || !rest) return [];
  return index.search([{ text: rest, weight: 1 }], { ...o, within: holds });
}
