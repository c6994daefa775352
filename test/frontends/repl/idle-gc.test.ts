import { afterEach, describe, expect, it, vi } from 'vitest';
import { idleCollector } from '../../../src/frontends/repl/idle-gc';

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
