/** Keys typed on the pre-drawn prompt before Ink mounts (first-frame.ts EarlyKeys). */
import { describe, expect, it } from 'vitest';
import { EarlyKeys } from '../../../src/frontends/repl/first-frame';

describe('EarlyKeys', () => {
  it('keeps printable keys as the draft and honours Backspace, by code point', () => {
    const k = new EarlyKeys();
    k.feed('abx');
    k.feed('\x7f');
    k.feed('c😀é\x7f');
    expect(k).toMatchObject({ lines: [], draft: 'abc😀', rest: '' });
    expect(k.plain).toBe(true);
  });

  it('Enter (\\r, or \\n from a terminal still in cooked mode) ends a line, in order', () => {
    const k = new EarlyKeys();
    k.feed('one\rtwo\nthr');
    expect(k).toMatchObject({ lines: ['one', 'two'], draft: 'thr' });
  });

  it('from the first other key on, everything is left for Ink as it came', () => {
    const k = new EarlyKeys();
    k.feed('ab\x1b[D');
    k.feed('c\r');
    expect(k).toMatchObject({ lines: [], draft: 'ab', rest: '\x1b[Dc\r' });
    expect(k.plain).toBe(false);
    const c = new EarlyKeys();
    c.feed('x\x03y');
    expect(c).toMatchObject({ draft: 'x', rest: '\x03y' });
  });

  it('fits: the prompt, the draft and the cursor block on one line', () => {
    const k = new EarlyKeys();
    k.feed('a'.repeat(7));
    expect(k.fits(10)).toBe(true);
    k.feed('b');
    expect(k.fits(10)).toBe(false);
  });
});
