import { describe, expect, it } from 'vitest';
import { hangWrap } from '../../src/util/hang';
import { columns } from '../../src/util/width';

describe('hangWrap', () => {
  it('leaves rows that fit alone, spacing kept', () => {
    expect(hangWrap('#1  3d  fact  short\n   indented   row', 40, 4)).toBe('#1  3d  fact  short\n   indented   row');
  });

  it('wraps a long row at words, continuation lines indented under it', () => {
    const out = hangWrap(':memory add KIND TEXT  remember TEXT; KIND is fact, pref or context', 30, 4);
    expect(out).toBe([':memory add KIND TEXT', '    remember TEXT; KIND is', '    fact, pref or context'].join('\n'));
  });

  it("hangs from the row's own indentation, at most half the width", () => {
    expect(hangWrap('  :memory plan [TEXT]  what would be sent', 24, 4).split('\n')).toEqual([
      '  :memory plan [TEXT]',
      '      what would be sent',
    ]);
    expect(hangWrap(`${' '.repeat(16)}aaa bbb ccc ddd`, 20, 4).split('\n')).toEqual([
      `${' '.repeat(16)}aaa`,
      `${' '.repeat(10)}bbb ccc`,
      `${' '.repeat(10)}ddd`,
    ]);
  });

  it('cuts a word longer than the line, and wide characters count two columns', () => {
    const out = hangWrap(`see ${'x'.repeat(50)} and 日本語の説明文です`, 20, 2).split('\n');
    for (const l of out) expect(columns(l)).toBeLessThanOrEqual(20);
    expect(out.join('').replace(/ /g, '')).toBe(`see${'x'.repeat(50)}and日本語の説明文です`);
  });
});

describe('hangWrap on notices (no hang)', () => {
  it('breaks at spaces, and no continuation row starts with the space it broke at', () => {
    const line = 'checkpoint 3 minutes ago (a1b2c3d) has ~/src/project as it was before those turns; changed since: a.ts';
    const out = hangWrap(line, 40, 0).split('\n');
    for (const l of out) {
      expect(columns(l)).toBeLessThanOrEqual(40);
      expect(l).not.toMatch(/^ /);
      expect(l).not.toMatch(/ $/);
    }
    // No word cut: every word of the line is whole on some row.
    expect(out.join(' ').split(' ')).toEqual(line.split(' '));
  });

  it('a word longer than the row is cut, after a | / , or ; where one leaves the row at least half full', () => {
    const usage = 'usage: :memory add|list|plan|search|inject|pin|unpin|forget|edit|clear|summarize|review|log — see :help memory';
    const out = hangWrap(usage, 30, 0).split('\n');
    for (const l of out) expect(columns(l)).toBeLessThanOrEqual(30);
    expect(out).toEqual([
      'usage: :memory',
      'add|list|plan|search|inject|',
      'pin|unpin|forget|edit|clear|',
      'summarize|review|log — see',
      ':help memory',
    ]);
    expect(hangWrap('x'.repeat(25), 10, 0).split('\n')).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('a long word on a hanging row: its later pieces fit beside the hang too', () => {
    const out = hangWrap(`${'y'.repeat(30)} z`, 12, 4).split('\n');
    for (const l of out) expect(columns(l)).toBeLessThanOrEqual(12);
    expect(out.join('').replace(/ /g, '')).toBe(`${'y'.repeat(30)}z`);
  });

  it('cuts a very long word without stalling, wide characters whole', () => {
    const word = '日本語'.repeat(2000);
    const out = hangWrap(`a ${word}`, 21, 0).split('\n');
    for (const l of out) expect(columns(l)).toBeLessThanOrEqual(21);
    expect(out.join('').replace(/ /g, '')).toBe(`a${word}`);
  });
});
