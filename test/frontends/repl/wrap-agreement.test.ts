// While an answer streams, the live area shows it word-wrapped; when it is done, renderMarkdown
// draws it again. For a plain paragraph both must break lines in the same places, or the text
// jumps when the answer completes.
import { describe, expect, it } from 'vitest';
import { tailLines } from '../../../src/frontends/repl/components/LiveArea';
import { renderMarkdown } from '../../../src/frontends/repl/markdown';
import { stringWidth } from '../../../src/util/width';

const FAMILY = '👨‍👩‍👧‍👦';
const CORPUS = [
  'The quick brown fox jumps over the lazy dog and keeps on running until the end of the line.',
  'spaces   collapse    between    words when   the paragraph is rendered',
  '日本語のテキストはスペースなしで長く続くことがあります。これは折り返しのテストです。',
  '中文 文本 混合 English words 和 标点符号，测试换行 是否 一致。',
  '한국어 문장은 띄어쓰기를 사용합니다 그래서 단어 단위로 줄바꿈이 됩니다',
  'Party 🎉 time 🎉🎉🎉 with friends 👋🏽 and family 👨‍👩‍👧‍👦 today 🏳️‍🌈 flags 🇯🇵🇫🇷 ok 👍🏻👍🏿',
  `families ${FAMILY.repeat(12)} end`,
  'thumbs 👍🏻👍🏼👍🏽👍🏾👍🏿👍🏻👍🏼👍🏽👍🏾👍🏿👍🏻👍🏼 and more',
  'Cafe\u0301 nai\u0308ve re\u0301sume\u0301 Z\u0335\u0321a\u0336l\u0334g\u0335o\u0337 text with marks',
  `accents ${'e\u0301'.repeat(30)} end`,
  'ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ และ ใช้ สระ ที่ ซ้อน กัน',
  'नमस्ते दुनिया यह एक परीक्षण वाक्य है',
  'Mixed 中文 and emoji 😀 with café, ｆｕｌｌｗｉｄｔｈ letters and ½ fractions — all in one line.',
  'See https://example.com/a/very/long/path/that/does/not/fit/anywhere/at/all?with=query for details',
  'commit 3f2a9c8e7d6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0 fixed it',
  'ab日本語日本語日本語日本語日本語 wide characters straddling the column edge',
  'x'.repeat(200),
];
const WIDTHS = [10, 11, 17, 23, 40, 80, 120];

describe('live and final wrapping agree for plain prose', () => {
  for (const text of CORPUS) {
    it(JSON.stringify(text.slice(0, 30)), () => {
      for (const w of WIDTHS) {
        const final = renderMarkdown(text, { width: w, color: false }).split('\n');
        const live = tailLines(text, Infinity, w, 'assistant');
        expect(live.lines, `width ${w}`).toEqual(final);
        expect(live.hidden).toBe(0);
        for (const line of live.lines) expect(stringWidth(line), `width ${w}: ${line}`).toBeLessThanOrEqual(w);
      }
    });
  }
});

describe('tailLines', () => {
  it('keeps the spacing of command output and cuts it by columns', () => {
    const out = 'name    size\n日本語  12\n' + 'ab'.repeat(12);
    expect(tailLines(out, 10, 10, 'shell').lines).toEqual(['name    si', 'ze', '日本語  12', 'ababababab', 'ababababab', 'abab']);
  });

  it('returns the last rows and counts the hidden ones', () => {
    const { lines, hidden } = tailLines('one two three four five six', 2, 9, 'assistant');
    expect(lines).toEqual(['four five', 'six']);
    expect(hidden).toBe(2);
  });
});

describe('tailLines in an answer', () => {
  it('keeps the spacing of code inside fences', () => {
    const text = '```py\ndef f():\n    return  1\n```\nsome   words  here\n~~~\n  x   y\n~~~';
    expect(tailLines(text, 99, 40, 'assistant').lines).toEqual([
      '```py',
      'def f():',
      '    return  1',
      '```',
      'some words here',
      '~~~',
      '  x   y',
      '~~~',
    ]);
  });
});
