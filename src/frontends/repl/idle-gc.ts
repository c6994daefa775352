/**
 * A full garbage collection when a turn ends and aish waits for the user. V8 sizes its heap
 * lazily, so a long session's RSS grows with garbage nobody holds (heap snapshots: finished turns
 * keep ~2 MB per 100 turns, mostly answers held by the conversation and for a resize's redraw);
 * collecting while the user reads costs nothing they notice.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/**
 * V8 lets the young generation grow to 16 MB per semi-space, and both halves stay resident for
 * the rest of the session. With growth off from here on, a long session's RSS is ~30 MB lower
 * (bench rss-turns). Called when the REPL starts, after the bundle has loaded: set in the launcher
 * instead, the bundle's load ran more scavenges and the first key's echo came ~4 ms later.
 */
export function limitYoungGeneration(setFlags: (flags: string) => void = setFlagsFromString): void {
  if (!/semi-space/.test(`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`)) setFlags('--semi-space-growth-factor=1');
}

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  } catch {
    gc = null; // not offered by this runtime: nothing to do
  }
  return gc;
}

/** Free room in the old space (after a collection) above which the next idle collection compacts. */
export const COMPACT_SLACK = 4 * 1024 * 1024;

export interface SpaceSize {
  physical: number;
  used: number;
}

function oldSpace(): SpaceSize {
  const s = getHeapSpaceStatistics().find((x) => x.space_name === 'old_space');
  return { physical: s?.physical_space_size ?? 0, used: s?.space_used_size ?? 0 };
}

/**
 * The idle collection. A full GC frees objects but keeps every old-space page that still holds one
 * live object, so over a long session the old space keeps growing past its live size (bench
 * rss-turns, 500 turns: 31.5 MB resident for 25.8 MB live; 29.2 MB with this). When a collection leaves more than
 * COMPACT_SLACK of such room, the next one also compacts (moves live objects together and returns
 * the emptied pages): it takes ~45 ms instead of ~25, so it runs only when there is room to win.
 * The flag is on for that one collection; V8's own collections keep their heuristics.
 */
export function idleCollection(
  gc: () => void,
  setFlags: (flags: string) => void = setFlagsFromString,
  space: () => SpaceSize = oldSpace,
): () => void {
  let compactNext = false;
  return () => {
    if (compactNext) {
      setFlags('--compact-on-every-full-gc');
      try {
        gc();
      } finally {
        setFlags('--no-compact-on-every-full-gc');
      }
    } else gc();
    const s = space();
    compactNext = s.physical - s.used > COMPACT_SLACK;
  };
}

let idle: (() => void) | null | undefined;

function collectIdle(): void {
  if (idle === undefined) {
    const gc = collector();
    idle = gc ? idleCollection(gc) : null;
  }
  idle?.();
}

/**
 * `collectWhenIdle(busy)` on every status change: collects once, `delayMs` after busy turns false
 * (after the turn's last frame). A turn typed ahead meanwhile does not cancel it: the collection
 * then runs while that turn waits for the model's first token, which hides it just as well.
 */
export function idleCollector(delayMs = 50, collect: () => void = collectIdle): (busy: boolean) => void {
  let wasBusy = false;
  let pending = false;
  return (busy) => {
    if (busy) {
      wasBusy = true;
      return;
    }
    if (!wasBusy || pending) return;
    wasBusy = false;
    pending = true;
    setTimeout(() => {
      pending = false;
      collect();
    }, delayMs).unref();
  };
}
