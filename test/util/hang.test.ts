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
