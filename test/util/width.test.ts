import { describe, expect, it } from 'vitest';
import stringWidthLib from 'string-width';
import { columns, fitColumns, graphemes, stringWidth, truncateColumns, wrapColumns, wrapSpans, wrapWords } from '../../src/util/width';

const FAMILY = '👨‍👩‍👧‍👦'; // one grapheme, ZWJ sequence, 2 columns
const THUMB = '👍🏽'; // emoji + skin tone, 2 columns
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Ground truth: one Intl.Segmenter pass. */
const onePass = (s: string): string[] => [...segmenter.segment(s)].map((g) => g.segment);
/** Every piece is made of whole graphemes of the original (none cut in two). */
const wholeGraphemes = (pieces: string[], original: string): void => {
  expect(pieces.join('')).toBe(original);
  expect(pieces.flatMap(onePass)).toEqual(onePass(original));
};

describe('stringWidth', () => {
  it('counts columns the way Ink does', () => {
    expect(stringWidth('abc')).toBe(3);
    expect(stringWidth('日本語')).toBe(6);
    expect(stringWidth(FAMILY)).toBe(2);
    expect(stringWidth(THUMB)).toBe(2);
    expect(stringWidth('e\u0301')).toBe(1);
  });
});

describe('graphemes and columns on long text', () => {
  // Long enough to be segmented in several slices, with clusters across every slice edge.
  const long = [
    'e\u0301'.repeat(700),
    FAMILY.repeat(300),
    '🇯🇵🇫🇷🇩🇪'.repeat(200),
    `a${'\u0301'.repeat(2000)}b`,
    `x${'😀'.repeat(400)}`,
    'नमस्ते दुनिया '.repeat(100),
    '日本語のテキスト'.repeat(150) + THUMB.repeat(100),
    'ab\u001b[31mred\u001b[0m'.repeat(100),
  ];

  it('splits like one Intl.Segmenter pass and measures like string-width', () => {
    for (const s of long) {
      expect(graphemes(s)).toEqual(onePass(s));
      expect(columns(s)).toBe(stringWidthLib(s));
    }
  });

  it('agrees with one segmenter pass and string-width on random text from many scripts', () => {
    let seed = 7; // mulberry32: a failure is reproducible
    const rand = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const ranges: Array<[number, number]> = [
      [0x20, 0x7e],
      [0xa0, 0x2ff],
      [0x300, 0x36f],
      [0x370, 0x52f],
      [0x900, 0x97f],
      [0xe00, 0xeff],
      [0x1100, 0x11ff],
      [0x2000, 0x2bff],
      [0x3000, 0x30ff],
      [0x4e00, 0x4fff],
      [0xac00, 0xd7ff],
      [0xfe00, 0xfe0f],
      [0xff00, 0xffef],
      [0x1f1e6, 0x1f1ff],
      [0x1f300, 0x1faff],
      [0x11000, 0x1107f],
      [0x20000, 0x2003f],
      [0x0021, 0xfffd],
    ];
    const bad: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // Mostly one range per string, so the joining-free fast path is exercised too.
      const own = ranges[Math.floor(rand() * ranges.length)]!;
      let s = '';
      for (let n = Math.floor(rand() * 40); n > 0; n--) {
        const [lo, hi] = rand() < 0.9 ? own : ranges[Math.floor(rand() * ranges.length)]!;
        const cp = lo + Math.floor(rand() * (hi - lo + 1));
        if (cp < 0xd800 || cp > 0xdfff) s += String.fromCodePoint(cp);
      }
      if (graphemes(s).join('\u0000') !== onePass(s).join('\u0000') || columns(s) !== stringWidthLib(s)) bad.push(JSON.stringify(s));
    }
    expect(bad).toEqual([]);
  });

  it('clusters the code points of the BMP and the emoji plane like Intl.Segmenter, next to neighbours', () => {
    // Each probe sits between newlines, which always break a cluster, so one segmenter pass over a
    // block of probes must give exactly the clusters graphemes() gives probe by probe.
    const planes: Array<[number, number]> = [
      [0x20, 0xffff],
      [0x1f000, 0x1ffff],
    ];
    const bad: string[] = [];
    let probes: Array<[number, string]> = [];
    const check = () => {
      const expected = probes.flatMap(([, p]) => ['\n', ...graphemes(p)]);
      const got = onePass(probes.map(([, p]) => '\n' + p).join(''));
      if (got.join('\u0000') !== expected.join('\u0000')) {
        for (const [cp, p] of probes) if (graphemes(p).join('\u0000') !== onePass(p).join('\u0000')) bad.push(cp.toString(16));
      }
      probes = [];
    };
    // The large blocks of CJK ideographs and Hangul syllables are uniform (one property value for
    // the whole block): every 16th of them is checked, every other code point is.
    const uniform = (cp: number) => (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7a3);
    for (const [lo, hi] of planes) {
      for (let cp = lo; cp <= hi; cp++) {
        if ((cp >= 0xd800 && cp <= 0xdfff) || (uniform(cp) && cp % 16 !== 0)) continue;
        const c = String.fromCodePoint(cp);
        // After a letter, after itself, after an emoji and before a wide character.
        probes.push([cp, `a${c}${c}😀${c}中`]);
        if (probes.length >= 300) check();
      }
    }
    check();
    expect(bad).toEqual([]);
  });

  it('wraps long text without cutting a cluster', () => {
    for (const s of long.slice(0, 7)) {
      for (const w of [7, 80]) {
        const pieces = wrapColumns(s, w);
        wholeGraphemes(pieces, s);
        for (const p of pieces.slice(0, -1)) expect(stringWidthLib(p)).toBeGreaterThan(w - 2);
        for (const p of pieces) if (graphemes(p).length > 1) expect(stringWidthLib(p)).toBeLessThanOrEqual(w);
      }
    }
  });
});

describe('wrapColumns', () => {
  it('cuts by columns, never through a wide character or a cluster', () => {
    expect(wrapColumns('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(wrapColumns('a日本語', 4)).toEqual(['a日', '本語']);
    const fams = FAMILY.repeat(5);
    const cut = wrapColumns(fams, 5);
    expect(cut).toEqual([FAMILY.repeat(2), FAMILY.repeat(2), FAMILY]);
    wholeGraphemes(cut, fams);
  });

  it('keeps spaces (command output lines up in columns)', () => {
    expect(wrapColumns('a  b    c', 4)).toEqual(['a  b', '    ', 'c']);
    expect(wrapColumns('', 4)).toEqual(['']);
  });
});

describe('truncateColumns', () => {
  it('cuts to the width including the ellipsis', () => {
    expect(truncateColumns('abcdef', 4)).toBe('abc…');
    expect(truncateColumns('abc', 4)).toBe('abc');
    expect(truncateColumns('日本語テキスト', 7)).toBe('日本語…');
    expect(stringWidth(truncateColumns(`${THUMB}${THUMB}${THUMB}`, 4))).toBeLessThanOrEqual(4);
  });
});

describe('wrapWords', () => {
  it('wraps greedily at spaces, collapsing runs of spaces and tabs', () => {
    expect(wrapWords('The quick brown fox jumps', 10)).toEqual(['The quick', 'brown fox', 'jumps']);
    expect(wrapWords('  a   b\t\tc  ', 10)).toEqual(['a b c']);
    expect(wrapWords('', 10)).toEqual(['']);
  });

  it('measures wide characters as two columns', () => {
    expect(wrapWords('日本 日本 日本', 10)).toEqual(['日本 日本', '日本']);
    expect(wrapWords(`${THUMB} ${THUMB} ${THUMB} ${THUMB}`, 7)).toEqual([`${THUMB} ${THUMB}`, `${THUMB} ${THUMB}`]);
  });

  it('splits a word wider than the column by grapheme cluster, on its own line', () => {
    expect(wrapWords(`a ${'x'.repeat(25)} b`, 10)).toEqual(['a', 'x'.repeat(10), 'x'.repeat(10), 'xxxxx b']);
    const fams = FAMILY.repeat(7);
    const lines = wrapWords(`go ${fams}`, 5);
    expect(lines[0]).toBe('go');
    wholeGraphemes(lines.slice(1), fams);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(5);
    const accents = 'e\u0301'.repeat(12); // 12 columns, 24 code units
    const cut = wrapWords(accents, 5);
    expect(cut).toEqual(['e\u0301'.repeat(5), 'e\u0301'.repeat(5), 'e\u0301'.repeat(2)]);
    wholeGraphemes(cut, accents);
  });

  it('agrees with wrapSpans, which keeps styles apart and merges equal ones', () => {
    const spans = [
      { text: 'bold ', style: 1 },
      { text: 'and', style: 1 },
      { text: ' plain text', style: 0 },
    ];
    expect(wrapSpans(spans, 9)).toEqual([[{ text: 'bold and', style: 1 }], [{ text: 'plain', style: 0 }], [{ text: 'text', style: 0 }]]);
    expect(wrapSpans([{ text: 'abc', style: 0 }], 0)).toEqual([
      [{ text: 'a', style: 0 }],
      [{ text: 'b', style: 0 }],
      [{ text: 'c', style: 0 }],
    ]);
  });
});

describe('fitColumns', () => {
  it('the longest prefix that fits, whole clusters only, at least one', () => {
    expect(fitColumns('abcdef', 4)).toBe('abcd');
    expect(fitColumns('ab', 4)).toBe('ab');
    expect(fitColumns('日本語です', 5)).toBe('日本');
    expect(fitColumns('日本', 1)).toBe('日'); // wider than the room: still moves on
    expect(fitColumns('abce\u0301f', 4)).toBe('abce\u0301');
    expect(fitColumns(`${'日'.repeat(5000)}`, 10)).toBe('日'.repeat(5));
  });
});
