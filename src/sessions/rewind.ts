/**
 * Taking back exchanges (`:rewind N`). Nothing is erased from a log: a rewind line
 * `{"meta":{"rewind":{ts, exchanges}}}` is appended, and whoever reads the log (resume, export,
 * listing) drops that many exchanges from the turns read before it.
 */
import type { Turn } from './types';

export interface RewindMark {
  ts: string;
  /** How many exchanges it takes back (≥ 1). */
  exchanges: number;
}

/** The turns that are left, and those taken back (oldest first). */
export interface RewindResult {
  kept: Turn[];
  removed: Turn[];
  /** Exchanges actually taken back: fewer than asked when the log holds fewer. */
  exchanges: number;
}

/**
 * An exchange starts at one of the user's prompts and runs to the next. Prompts whose call failed
 * (answered by an `error` turn) are not counted: the live conversation dropped them already, so
 * `:rewind 1` takes back the last exchange the user saw answered. Memory-extraction turns
 * (`summarize`) never start one.
 */
function startsExchange(turns: readonly Turn[], i: number): boolean {
  const t = turns[i]!;
  if (t.role !== 'user' || t.meta === 'summarize') return false;
  return turns[i + 1]?.meta !== 'error';
}

export function rewindTurns(turns: readonly Turn[], n: number): RewindResult {
  let cut = turns.length;
  let exchanges = 0;
  for (let i = turns.length - 1; i >= 0 && exchanges < n; i--) {
    if (startsExchange(turns, i)) {
      cut = i;
      exchanges++;
    }
  }
  return { kept: turns.slice(0, cut), removed: turns.slice(cut), exchanges };
}

/** A rewind line's value, or the reason it is not one. */
export function checkRewind(v: unknown): RewindMark | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'rewind must be an object';
  const r = v as Record<string, unknown>;
  if (typeof r.ts !== 'string') return 'rewind without ts';
  if (!Number.isSafeInteger(r.exchanges) || (r.exchanges as number) < 1) return 'rewind exchanges must be a whole number ≥ 1';
  return { ts: r.ts, exchanges: r.exchanges as number };
}

export function rewindRecord(exchanges: number, now = new Date()): { meta: { rewind: RewindMark } } {
  return { meta: { rewind: { ts: now.toISOString(), exchanges } } };
}
