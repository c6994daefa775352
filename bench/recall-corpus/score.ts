/** The figures of a recall-quality run, per question class, from what each turn recalled. */
import { percentile } from '../lib';
import type { Question, QuestionClass } from './types';

/** What one turn sent for one question. */
export interface TurnOutcome {
  question: Question;
  /** The expected fact's place in [recall] (1 = first), 0 when it is not there. */
  rank: number;
  /** The expected fact was in [background] that turn (so it was sent, without being recalled). */
  inBackground: boolean;
  /** Items in [recall] that turn. */
  recalled: number;
  /** Characters of the [recall] block (0 when there was none). */
  chars: number;
  /** Items of another project in [recall] (must be 0). */
  leaked: number;
  /** Why the fact was not sent (only when asked: HarnessOptions.explain). */
  why?: string;
}

export interface ClassScore {
  class: QuestionClass;
  turns: number;
  /** Turns whose expected fact was sent, in [recall] or [background]. */
  hits: number;
  /** Of those, found only in [background]. */
  background: number;
  /** Mean reciprocal rank: 1/rank in [recall], 1 for [background], 0 for a miss. */
  mrr: number;
  /** Turns with any [recall] block. */
  anyRecall: number;
  charsP50: number;
  charsP90: number;
  itemsP50: number;
  leaks: number;
}

export function scoreClass(cls: QuestionClass, turns: readonly TurnOutcome[]): ClassScore {
  const mine = turns.filter((t) => t.question.class === cls);
  const chars = mine.map((t) => t.chars).sort((a, b) => a - b);
  const items = mine.map((t) => t.recalled).sort((a, b) => a - b);
  let hits = 0;
  let background = 0;
  let rr = 0;
  for (const t of mine) {
    if (t.rank > 0) {
      hits++;
      rr += 1 / t.rank;
    } else if (t.inBackground) {
      hits++;
      background++;
      rr += 1;
    }
  }
  return {
    class: cls,
    turns: mine.length,
    hits,
    background,
    mrr: mine.length ? rr / mine.length : 0,
    anyRecall: mine.filter((t) => t.chars > 0).length,
    charsP50: mine.length ? percentile(chars, 50) : 0,
    charsP90: mine.length ? percentile(chars, 90) : 0,
    itemsP50: mine.length ? percentile(items, 50) : 0,
    leaks: mine.reduce((n, t) => n + t.leaked, 0),
  };
}
