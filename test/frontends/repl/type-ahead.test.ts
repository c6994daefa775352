/** Type-ahead's queueing rules, without Ink: what runs at once, what waits, in which order; and its rows. */
import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_ROWS, queuedRows } from '../../../src/frontends/repl/components/QueuedLines';
import { TypeAhead } from '../../../src/frontends/repl/type-ahead';

/** A queue whose lines finish when the test says so. */
function harness() {
  const ran: string[] = [];
  const finish: Array<(r?: 'stop') => void> = [];
  let engineBusy = false;
  let shown: readonly string[] = [];
  const q = new TypeAhead({
    busy: () => engineBusy,
    run: (text) =>
      new Promise<'stop' | void>((resolve) => {
        ran.push(text);
        finish.push(resolve);
      }),
    changed: (list) => (shown = [...list]),
  });
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    q,
    ran,
    shown: () => shown,
    tick,
    /** The line running now ends. */
    end: async (r?: 'stop') => {
      finish.shift()!(r);
      await tick();
    },
    setBusy: (b: boolean) => (engineBusy = b),
  };
}

describe('TypeAhead', () => {
  it('runs a line at once when nothing runs', () => {
    const h = harness();
    expect(h.q.submit('hello')).toBe('ran');
    expect(h.ran).toEqual(['hello']);
    expect(h.shown()).toEqual([]);
  });

  it('queues lines typed while one runs and runs them in order, one at a time', async () => {
    const h = harness();
    h.q.submit('first');
    expect(h.q.submit('second')).toBe('queued');
    expect(h.q.submit('!ls')).toBe('queued');
    expect(h.q.submit(':model')).toBe('queued');
    expect(h.shown()).toEqual(['second', '!ls', ':model']);
    expect(h.ran).toEqual(['first']);
    await h.end();
    expect(h.ran).toEqual(['first', 'second']);
    expect(h.shown()).toEqual(['!ls', ':model']);
    await h.end();
    await h.end();
    expect(h.ran).toEqual(['first', 'second', '!ls', ':model']);
    expect(h.shown()).toEqual([]);
  });

  it('queues while the engine is busy with work it did not start, and runs when told it ended', async () => {
    const h = harness();
    h.setBusy(true);
    expect(h.q.submit('later')).toBe('queued');
    h.q.next(); // still busy: nothing runs
    expect(h.ran).toEqual([]);
    h.setBusy(false);
    h.q.next();
    expect(h.ran).toEqual(['later']);
  });

  it('a line that ends while the engine is still busy waits for next()', async () => {
    const h = harness();
    h.q.submit('one');
    h.q.submit('two');
    h.setBusy(true);
    await h.end();
    expect(h.ran).toEqual(['one']);
    h.setBusy(false);
    h.q.next();
    expect(h.ran).toEqual(['one', 'two']);
  });

  it('a new line while others wait goes behind them (strict order), even once nothing runs', async () => {
    const h = harness();
    h.setBusy(true);
    h.q.submit('a');
    h.setBusy(false);
    // Not yet told that the work ended: 'b' must not overtake 'a'.
    expect(h.q.submit('b')).toBe('queued');
    h.q.next();
    expect(h.ran).toEqual(['a']);
    await h.end();
    expect(h.ran).toEqual(['a', 'b']);
  });

  it('Esc takes back the newest queued line', async () => {
    const h = harness();
    h.q.submit('running');
    h.q.submit('keep');
    h.q.submit('drop');
    expect(h.q.removeLast()).toBe('drop');
    expect(h.shown()).toEqual(['keep']);
    expect(h.q.removeLast()).toBe('keep');
    expect(h.q.removeLast()).toBeUndefined();
    await h.end();
    expect(h.ran).toEqual(['running']);
  });

  it('an empty Enter while busy is ignored, not queued', () => {
    const h = harness();
    h.q.submit('running');
    expect(h.q.submit('   ')).toBe('ignored');
    expect(h.shown()).toEqual([]);
  });

  it('a line that quits drops the rest of the queue', async () => {
    const h = harness();
    h.q.submit(':quit');
    h.q.submit('never');
    await h.end('stop');
    expect(h.ran).toEqual([':quit']);
    expect(h.shown()).toEqual([]);
    expect(h.q.submit('after')).toBe('ignored');
  });

  it('a line that fails still lets the next one run', async () => {
    const ran: string[] = [];
    const q = new TypeAhead({
      busy: () => false,
      run: async (text) => {
        ran.push(text);
        if (text === 'bad') throw new Error('boom');
      },
      changed: () => {},
    });
    q.submit('bad');
    q.submit('good');
    await new Promise((r) => setTimeout(r, 0));
    expect(ran).toEqual(['bad', 'good']);
  });
});

describe('queued rows', () => {
  it('one row per line, a multi-line prompt as its first line, cut at the width', () => {
    expect(queuedRows(['ls', 'first\nsecond'], 80)).toEqual(['queued: ls', 'queued: first …']);
    expect(queuedRows(['x'.repeat(50)], 20)).toEqual([`queued: ${'x'.repeat(11)}…`]);
  });

  it('a long queue shows its newest lines and counts the rest', () => {
    const q = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(queuedRows(q, 80)).toEqual(['queued: … 3 more', 'queued: d', 'queued: e', 'queued: f', 'queued: g']);
    expect(queuedRows(q, 80)).toHaveLength(MAX_QUEUED_ROWS);
  });
});
