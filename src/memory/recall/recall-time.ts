/**
 * How a message's time words (time-words.ts) move recall: items written in a period it names
 * score PERIOD_BOOST times more, and for a "when" question the hits whose text says a time
 * (a date, "yesterday", "last week") come WHEN_BOOST times higher. Both only re-order what the
 * message's words found: the cut stays the words' (recall-cut.ts).
 */
import type { Recalled } from './recall';
import type { TimeFavour } from './recall-rank';
import { inPeriod, readTime, saysTime, type TimeReading } from './time-words';

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
export function favourTime<R extends Recalled>(hits: readonly R[], time: TimeOf | null, itemTime: (r: R) => number): R[] {
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
