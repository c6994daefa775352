import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPACT_SLACK, idleCollection, idleCollector, limitYoungGeneration } from '../../../src/frontends/repl/idle-gc';

afterEach(() => vi.useRealTimers());

describe('idleCollector', () => {
  it('collects once after each turn ends, never while idle, and a turn typed ahead does not cancel it', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const onStatus = idleCollector(50, collect);
    onStatus(false);
    onStatus(false);
    vi.advanceTimersByTime(100);
    expect(collect).not.toHaveBeenCalled(); // nothing ran: nothing to collect
    onStatus(true);
    onStatus(true);
    onStatus(false);
    onStatus(false); // more status changes while idle: still one collection
    onStatus(true); // the next turn starts at once (type-ahead)
    vi.advanceTimersByTime(60);
    expect(collect).toHaveBeenCalledTimes(1);
    onStatus(false);
    vi.advanceTimersByTime(60);
    expect(collect).toHaveBeenCalledTimes(2);
  });
});

describe('idleCollection', () => {
  it('compacts only the collection after one that left more than COMPACT_SLACK of room in the old space, with the flag on for that collection only', () => {
    const calls: string[] = [];
    let room = 0;
    const collect = idleCollection(
      () => calls.push('gc'),
      (flags) => calls.push(flags),
      () => ({ physical: 10 * 1024 * 1024 + room, used: 10 * 1024 * 1024 }),
    );
    collect(); // first collection: nothing known yet, plain
    expect(calls).toEqual(['gc']);
    room = COMPACT_SLACK + 1;
    collect(); // still plain: the room shows after it
    expect(calls).toEqual(['gc', 'gc']);
    room = 0;
    collect(); // compacts, and the flag goes off again
    expect(calls).toEqual(['gc', 'gc', '--compact-on-every-full-gc', 'gc', '--no-compact-on-every-full-gc']);
    collect(); // the compaction left no room: plain again
    expect(calls.slice(5)).toEqual(['gc']);
    room = COMPACT_SLACK; // exactly the threshold is not more than it
    collect();
    collect();
    expect(calls.slice(6)).toEqual(['gc', 'gc']);
  });

  it('turns the flag off even when the collection throws', () => {
    const flags: string[] = [];
    const collect = idleCollection(
      () => {
        if (flags.length) throw new Error('boom');
      },
      (f) => flags.push(f),
      () => ({ physical: 2 * COMPACT_SLACK, used: 0 }),
    );
    collect();
    expect(() => collect()).toThrow('boom');
    expect(flags).toEqual(['--compact-on-every-full-gc', '--no-compact-on-every-full-gc']);
  });
});

describe('limitYoungGeneration', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('stops the young generation from growing, unless the user sized it with NODE_OPTIONS', () => {
    const flags: string[] = [];
    vi.stubEnv('NODE_OPTIONS', '');
    limitYoungGeneration((f) => flags.push(f));
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    vi.stubEnv('NODE_OPTIONS', '--max-semi-space-size=8');
    limitYoungGeneration((f) => flags.push(f));
    expect(flags).toHaveLength(1);
  });
});
