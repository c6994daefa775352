/**
 * vitest's fake setTimeout/clearTimeout, moved forward in steps with a short real pause between
 * steps so that real I/O (sockets to the fake server) proceeds. A timer fires only once the fake
 * clock reaches it, so "B happened at fake time ≥ N" holds however slow or loaded the machine is:
 * the checks are about the delays code asks for, not about how long anything took.
 */
import { vi } from 'vitest';

const realSetTimeout = globalThis.setTimeout;
const realPause = (ms: number) => new Promise<void>((r) => realSetTimeout(r, ms));

export interface FakeClock {
  /** Fake milliseconds advanced so far (during a step: its end, so it never reads early). */
  readonly now: number;
  /** Advance `stepMs` at a time until `cond()`; throws after `realTimeoutMs` of real time. */
  advanceUntil(cond: () => boolean, what: string, opts?: { stepMs?: number; realTimeoutMs?: number }): Promise<void>;
  /** Advance until the promise settles, and return its outcome. */
  settle<T>(p: Promise<T>, what: string, opts?: { stepMs?: number; realTimeoutMs?: number }): Promise<T>;
}

/** Runs `body` with a fake clock for setTimeout/clearTimeout (Date and the rest stay real). */
export async function withFakeClock<T>(body: (clock: FakeClock) => Promise<T>): Promise<T> {
  let now = 0;
  const clock: FakeClock = {
    get now() {
      return now;
    },
    async advanceUntil(cond, what, opts = {}) {
      const stepMs = opts.stepMs ?? 10;
      const end = Date.now() + (opts.realTimeoutMs ?? 10_000);
      while (!cond()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what} (fake clock at ${now} ms)`);
        now += stepMs; // first: what runs during the advance sees the clock at the end of this step
        await vi.advanceTimersByTimeAsync(stepMs);
        await realPause(2);
      }
    },
    async settle(p, what, opts) {
      let done = false;
      const tracked = p.finally(() => (done = true));
      tracked.catch(() => {}); // the caller sees the rejection through the return value
      await clock.advanceUntil(() => done, what, opts);
      return tracked;
    },
  };
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    return await body(clock);
  } finally {
    vi.useRealTimers();
  }
}
