// The input line and the echo of a prompt both draw wrapPrompt's rows: they must fit the width
// exactly (Ink would wrap a wider row again, and badly), keep every character, and break lines
// where the answer's word wrap does.
import { describe, expect, it } from 'vitest';
import { cursorRow, wrapPrompt } from '../../../src/frontends/repl/prompt-wrap';
import { stringWidth, wrapWords } from '../../../src/util/width';

const rowsOf = (text: string, width: number, prompt = 2) => wrapPrompt(text, width, prompt).map((r) => text.slice(r.start, r.end));

const CASES = [
  'x'.repeat(150),
  'https://example.com/a/very/long/path/that/does/not/fit/anywhere/at/all?with=query&and=more&more=yes',
  '日本語のテキスト'.repeat(9), // 72 wide characters
  '🎉'.repeat(50),
  '👨‍👩‍👧‍👦'.repeat(30),
  'e\u0301'.repeat(90),
  'the quick brown fox jumps over the lazy dog '.repeat(4).trim(),
  'see https://example.com/a/very/long/path/that/does/not/fit/anywhere/at/all for details',
  'ab日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語 wide',
];

describe('wrapPrompt', () => {
  for (const text of CASES) {
    it(JSON.stringify(text.slice(0, 24)), () => {
      for (const width of [10, 40, 80, 120]) {
        const rows = wrapPrompt(text, width, 2);
        // Every row fits: the first after the 2-column prompt, the rest from column 0.
        rows.forEach((r, i) => {
          const line = text.slice(r.start, r.end);
          expect(stringWidth(line), `${width}: row ${i} ${line}`).toBe(r.width);
          expect(r.width, `${width}: row ${i}`).toBeLessThanOrEqual(i === 0 ? width - 2 : width);
          expect(line.startsWith(' '), `${width}: row ${i} starts with a space`).toBe(false);
        });
        // Nothing is lost but the spaces at a break, and rows come in order.
        expect(rowsOf(text, width).join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        // No row is left short while the next row's first cluster would have fit (no fragment
        // stranded on its own row) unless it ends at a space break.
        for (let i = 0; i + 1 < rows.length; i++) {
          const room = (i === 0 ? width - 2 : width) - rows[i]!.width;
          const nextFirst = Array.from(new Intl.Segmenter().segment(text.slice(rows[i + 1]!.start)))[0]!.segment;
          if (text[rows[i]!.end] !== ' ' && text[rows[i + 1]!.start - 1] !== ' ')
            expect(stringWidth(nextFirst), `${width}: row ${i}`).toBeGreaterThan(room);
        }
      }
    });
  }

  it('a long word fills the rows by columns: 150 × x at 40 columns after `› `', () => {
    expect(rowsOf('x'.repeat(150), 40)).toEqual(['x'.repeat(38), 'x'.repeat(40), 'x'.repeat(40), 'x'.repeat(32)]);
  });

  it('wide characters never straddle the edge', () => {
    expect(rowsOf('日本語'.repeat(5), 10)).toEqual(['日本語日', '本語日本語', '日本語日本', '語']);
  });

  it('breaks between words like the answer word wrap (the first row narrower by the prompt)', () => {
    const text = 'the quick brown fox jumps over the lazy dog and keeps on running until the end of the line';
    for (const width of [12, 17, 23, 40]) {
      const rows = rowsOf(text, width, 0);
      expect(rows.map((r) => r.trimEnd())).toEqual(wrapWords(text, width));
    }
    expect(rowsOf('aaa bbb ccc', 9)).toEqual(['aaa bbb', 'ccc']);
    expect(rowsOf('aaa bbb ccc', 8)).toEqual(['aaa ', 'bbb ccc']);
  });

  it('a word longer than the row starts a new row unless the row is empty', () => {
    expect(rowsOf(`ab ${'y'.repeat(12)}`, 10)).toEqual(['ab ', 'yyyyyyyyyy', 'yy']);
  });

  it('each line of a multi-line text starts a head row', () => {
    const rows = wrapPrompt('one\ntwo two two two', 8, 2);
    expect(rows.map((r) => r.head)).toEqual([true, true, false, false]);
  });

  it('the cursor row: inside a row, at the end of the text, in the spaces of a break', () => {
    const text = 'aaaa bbbb';
    const rows = wrapPrompt(text, 6, 2); // 'aaaa', then 'bbbb' (the space is the break)
    expect(rows.map((r) => text.slice(r.start, r.end))).toEqual(['aaaa', 'bbbb']);
    expect(cursorRow(rows, 2)).toEqual({ row: 0, at: 2 });
    expect(cursorRow(rows, 4)).toEqual({ row: 0, at: 4 });
    expect(cursorRow(rows, 5)).toEqual({ row: 1, at: 0 });
    expect(cursorRow(rows, 9)).toEqual({ row: 1, at: 4 });
  });

  it('the cursor row of a multi-line text: an empty line keeps its own cursor, not the line below', () => {
    const text = '\nfoo line\nbar line';
    const rows = wrapPrompt(text, 40, 2);
    expect(cursorRow(rows, 0)).toEqual({ row: 0, at: 0 });
    expect(cursorRow(rows, 9)).toEqual({ row: 1, at: 8 });
    expect(cursorRow(rows, 10)).toEqual({ row: 2, at: 0 });
    expect(cursorRow(wrapPrompt('a\n\nb', 40, 2), 3)).toEqual({ row: 2, at: 0 });
  });
});
