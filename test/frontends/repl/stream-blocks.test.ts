import { describe, expect, it } from 'vitest';
import { BlockSplitter } from '../../../src/frontends/repl/stream-blocks';

describe('BlockSplitter', () => {
  it('cuts after blank lines, never inside a fenced code block, fed piece by piece', () => {
    const text = 'Intro para.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter code.\n\n~~~\nx\n\n~~~\ntail';
    const s = new BlockSplitter();
    const cuts: number[] = [];
    for (const ch of text) cuts.push(s.push(ch));
    const distinct = [...new Set(cuts)].filter((c) => c > 0);
    // after the intro, after the blank line that follows the first code block, after "After code.";
    // the blank lines inside both fences are not cuts, and "tail" has no blank line after it
    expect(distinct).toEqual([
      'Intro para.\n\n'.length,
      text.indexOf('```\n\nAfter') + '```\n\n'.length,
      text.indexOf('After code.\n\n') + 'After code.\n\n'.length,
    ]);
    // every cut leaves the fences balanced before it
    for (const c of distinct) expect((text.slice(0, c).match(/^(```|~~~)/gm) ?? []).length % 2).toBe(0);
  });

  it('a longer closing fence closes; a different fence character does not', () => {
    const s = new BlockSplitter();
    expect(s.push('````\na\n```\n\nstill code\n````\n\n')).toBe('````\na\n```\n\nstill code\n````\n\n'.length);
  });

  it('gives the same cuts whatever the pieces: lines split across pieces, several lines in one', () => {
    const text = 'One.\n\n```\na\n\nb\n```\n\nTwo\nlines.\n\n- item\n\nend';
    const cutsOf = (sizes: number[]) => {
      const s = new BlockSplitter();
      const cuts = new Set<number>();
      for (let i = 0, k = 0; i < text.length; k++) {
        const n = sizes[k % sizes.length]!;
        cuts.add(s.push(text.slice(i, i + n)));
        i += n;
      }
      return [...cuts];
    };
    const one = cutsOf([1]);
    expect(one.filter((c) => c > 0)).toHaveLength(4);
    for (const sizes of [[2], [3, 7], [5, 1, 11], [text.length]]) {
      const cuts = cutsOf(sizes);
      expect(cuts.at(-1)).toBe(one.at(-1));
      for (const c of cuts) expect(one).toContain(c);
    }
  });
});
