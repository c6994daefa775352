/**
 * A hybrid logical clock for memory records: a stamp `<13-digit ms>-<4-digit counter>`
 * (`"1764182400000-0003"`) whose plain string order is time order. It never goes backwards within
 * a process, even when the wall clock does, and it moves past every stamp it is shown, so a record
 * written later on this machine sorts after everything the store already holds (docs/memory-file.md).
 */

const COUNTER_LIMIT = 10_000;
const STAMP_RE = /^(\d{13})-(\d{4})$/;

/**
 * How far ahead of this machine's clock a stamp may be and still be believed. Beyond it the writer's
 * clock was wrong: the stamp never moves this clock (every later record here would be stamped in
 * the future too), and sync takes such a received record at this clock instead.
 */
export const MAX_AHEAD_MS = 10 * 60_000;

export class HybridClock {
  private ms = 0;
  private n = 0;

  /** The next stamp: the wall clock when it has moved on, else the last time with the counter raised. */
  next(wallMs: number): string {
    const wall = Math.floor(wallMs);
    if (wall > this.ms) {
      this.ms = wall;
      this.n = 0;
    } else if (++this.n === COUNTER_LIMIT) {
      // Ten thousand stamps in one millisecond: borrow the next millisecond rather than widen the format.
      this.ms++;
      this.n = 0;
    }
    return formatStamp(this.ms, this.n);
  }

  /**
   * Move past `stamp` (one read from the file); anything that is not a stamp, or one more than
   * MAX_AHEAD_MS ahead of the wall clock `wallMs`, is ignored.
   */
  observe(stamp: string | undefined, wallMs = Date.now()): void {
    const m = stamp === undefined ? null : STAMP_RE.exec(stamp);
    if (!m) return;
    const ms = Number(m[1]);
    const n = Number(m[2]);
    if (ms > wallMs + MAX_AHEAD_MS) return;
    if (ms > this.ms || (ms === this.ms && n > this.n)) {
      this.ms = ms;
      this.n = n;
    }
  }
}

export function formatStamp(ms: number, n: number): string {
  return `${String(ms).padStart(13, '0')}-${String(n).padStart(4, '0')}`;
}

/** The time a stamp was made (ms since the epoch); NaN for anything that is not a stamp. */
export function stampTime(stamp: string): number {
  const m = STAMP_RE.exec(stamp);
  return m ? Number(m[1]) : NaN;
}

/** The later of two stamps (either may be missing or not a stamp: then the other wins). */
export function laterStamp(a: string | undefined, b: unknown): string | undefined {
  if (typeof b !== 'string' || !STAMP_RE.test(b)) return a;
  return a === undefined || b > a ? b : a;
}

/**
 * Whether `hlc` is a stamp later than `max`, the highest stamp read before it: what aish's own
 * appends are (this clock moves past every stamp it reads). No `max` ('' or undefined) counts as
 * earlier than any stamp, and so does one too far ahead to be believed (a wrong clock's, which
 * this clock never moved past).
 */
export function stampedAfter(hlc: unknown, max: string | undefined): hlc is string {
  return typeof hlc === 'string' && (!max || hlc > max || stampTime(max) > Date.now() + MAX_AHEAD_MS);
}
