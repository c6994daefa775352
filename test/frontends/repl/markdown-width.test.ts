// The finished rendering measures text with string-width, the function Ink lays it out with.
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/frontends/repl/markdown';
import { stringWidth } from '../../../src/util/width';

const plain = (md: string, width = 80): string => renderMarkdown(md, { width, color: false });
const FAMILY = '👨‍👩‍👧‍👦';
const THUMB = '👍🏽';
const graphemes = (s: string): string[] => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

describe('renderMarkdown widths', () => {
  it('aligns table columns by display width (emoji with modifiers, CJK)', () => {
    const md = `| a | b |\n|---|---|\n| ${THUMB} | x |\n| 日本 | y |\n| ${FAMILY} | z |`;
    const lines = plain(md).split('\n');
    expect(lines).toEqual(['a    │ b', '─────┼──', `${THUMB}   │ x`, '日本 │ y', `${FAMILY}   │ z`]);
    const bar = lines.filter((l) => l.includes('│')).map((l) => stringWidth(l.slice(0, l.indexOf('│'))));
    expect(new Set(bar).size).toBe(1);
  });

  it('cuts an over-long word only between grapheme clusters', () => {
    for (const word of [FAMILY.repeat(9), THUMB.repeat(9), 'n\u0303'.repeat(25), '🏳️‍🌈'.repeat(9)]) {
      const lines = plain(`x ${word}`, 10).split('\n');
      expect(lines[0]).toBe('x');
      expect(lines.slice(1).join('')).toBe(word);
      expect(lines.slice(1).flatMap(graphemes)).toEqual(graphemes(word));
      for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(10);
    }
  });

  it('wraps prose by display width', () => {
    expect(plain('日本語 テキスト 折り返し', 14)).toBe('日本語\nテキスト\n折り返し');
    expect(plain(`${FAMILY} ${FAMILY} ${FAMILY} ${FAMILY}`, 7)).toBe(`${FAMILY} ${FAMILY}\n${FAMILY} ${FAMILY}`);
  });

  it('expands tabs in code to stops of four display columns', () => {
    expect(plain('```\n日本\tx\nab\ty\n```')).toBe('```\n  日本    x\n  ab  y\n```');
  });
});
