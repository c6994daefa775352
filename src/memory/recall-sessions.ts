/**
 * Several sessions: a question whose matches come from several sessions gets the best of each
 * before a second item of any one. A long conversation's evidence for "what did X do in May and
 * June" sits in different sessions, while the top of the ranking is often one session's turns.
 * An item's session is its `source`; without one, the day it was written (a conversation's
 * sessions are days apart).
 */
import type { MemoryItem } from './types';

/** The session an item was written in: its source, else its day. */
export function sessionOf(item: MemoryItem): string {
  return item.source !== undefined ? `s:${item.source}` : `d:${item.ts.slice(0, 10)}`;
}

/**
 * `ranked` (best first) reordered: the top hit, then the best of each other session in rank order,
 * then the rest in rank order. One session's hits keep their order.
 */
export function spreadSessions<T>(ranked: readonly T[], item: (t: T) => MemoryItem): T[] {
  const seen = new Set<string>();
  const firsts: T[] = [];
  const rest: T[] = [];
  for (const r of ranked) {
    const s = sessionOf(item(r));
    if (seen.has(s)) rest.push(r);
    else {
      seen.add(s);
      firsts.push(r);
    }
  }
  return [...firsts, ...rest];
}
