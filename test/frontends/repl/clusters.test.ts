/** The line editor over grapheme clusters: every key moves or deletes whole clusters, never half. */
import { describe, expect, it } from 'vitest';
import * as ed from '../../../src/frontends/repl/line-editor';

const at = (text: string, cursor: number): ed.EditorState => ({ text, cursor, historyIndex: null, draft: '' });
const end = (text: string) => at(text, text.length);
// No lone surrogate anywhere: what the session log and the input history would store.
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

const FAMILY = '👨‍👩‍👧‍👦'; // ZWJ sequence, 11 UTF-16 units
const FLAG = '🇫🇷'; // two regional indicators
const E_ACUTE = 'e\u0301'; // e + combining acute
const PARTY = '🎉'; // one surrogate pair

// [name, cluster]: each row runs the same keys with the cluster between two ASCII letters.
const CLUSTERS: Array<[string, string]> = [
  ['ASCII', 'x'],
  ['surrogate-pair emoji', PARTY],
  ['ZWJ emoji', FAMILY],
  ['flag', FLAG],
  ['combining mark', E_ACUTE],
  ['CJK', '日'],
];

describe.each(CLUSTERS)('%s as one cluster', (_name, g) => {
  const text = `a${g}b`;
  const before = 1; // boundary before g
  const after = 1 + g.length; // boundary after g

  it('← and → step over it whole', () => {
    expect(ed.left(at(text, after)).cursor).toBe(before);
    expect(ed.left(at(text, text.length)).cursor).toBe(after);
    expect(ed.right(at(text, before)).cursor).toBe(after);
    expect(ed.right(at(text, after)).cursor).toBe(text.length);
    expect(ed.right(end(text)).cursor).toBe(text.length);
    expect(ed.left(at(text, 0)).cursor).toBe(0);
  });

  it('Backspace and Delete remove it whole', () => {
    expect(ed.backspace(at(text, after))).toMatchObject({ text: 'ab', cursor: before });
    expect(ed.deleteForward(at(text, before))).toMatchObject({ text: 'ab', cursor: before });
    expect(ed.deleteForward(end(text)).text).toBe(text);
  });

  it("type, ←←, X puts X before b and keeps the cluster intact (the issue's a🎉b case)", () => {
    let s = end(text);
    s = ed.left(ed.left(s));
    s = ed.insert(s, 'X');
    expect(s.text).toBe(`aX${g}b`);
    const t = ed.insert(ed.left(end(text)), 'X');
    expect(t).toMatchObject({ text: `a${g}Xb`, cursor: after + 1 });
    expect(wellFormed(t.text)).toBe(true);
  });

  it('every key sequence leaves well-formed text', () => {
    const keys = [ed.left, ed.right, ed.backspace, ed.deleteForward, ed.wordBack, ed.wordForward];
    for (const k1 of keys)
      for (const k2 of keys) {
        const s = ed.insert(k2(k1(end(`${g}${g} ${g}`))), 'Z');
        expect(wellFormed(s.text), `${k1.name} ${k2.name}`).toBe(true);
        expect(ed.backspace(s).text.length).toBeLessThan(s.text.length);
      }
  });
});

describe('word moves (readline: words are runs of letters and digits)', () => {
  // [text, cursor, Alt-b cursor, Alt-f cursor]
  const rows: Array<[string, number, number, number]> = [
    ['git commit -m', 13, 12, 13],
    ['git commit -m', 4, 0, 10],
    ['git commit -m', 0, 0, 3],
    ['foo--bar baz', 12, 9, 12],
    ['foo--bar baz', 5, 0, 8],
    [`ab ${PARTY} cd`, 6, 0, 8],
    [`ab ${PARTY} cd`, 3, 0, 8],
    [`${FAMILY} ${FAMILY}`, 23, 0, 23],
    [`café${E_ACUTE} x`, 0, 0, 6], // an accented letter is part of the word
    ['日本語 テスト', 0, 0, 3],
    ['日本語 テスト', 7, 4, 7],
    ['one\ntwo', 4, 0, 7],
    ['one\ntwo', 3, 0, 7],
  ];
  it.each(rows)('%j at %i: Alt-b → %i, Alt-f → %i', (text, cursor, back, fwd) => {
    expect(ed.wordBack(at(text, cursor)).cursor).toBe(back);
    expect(ed.wordForward(at(text, cursor)).cursor).toBe(fwd);
  });

  it('Alt-d deletes to the end of the word, Alt-Backspace to its start', () => {
    expect(ed.killWordForward(at('git commit -m', 3))).toMatchObject({ text: 'git -m', cursor: 3 });
    expect(ed.killWordForward(at(`x ${FLAG}${FAMILY}日本 y`, 1))).toMatchObject({ text: 'x y', cursor: 1 });
    expect(ed.killWordBackAlnum(at('path/to/file', 12))).toMatchObject({ text: 'path/to/', cursor: 8 });
    expect(ed.killWordBackAlnum(at(`a ${E_ACUTE}${E_ACUTE}`, 6))).toMatchObject({ text: 'a ', cursor: 2 });
    // Ctrl-W still kills back to a blank (unix-word-rubout), a path whole
    expect(ed.killWordBack(at('ls path/to/file', 15))).toMatchObject({ text: 'ls ', cursor: 3 });
  });

  it('a word move over a long line stays exact past the segmenting window', () => {
    const long = 'word '.repeat(2000) + `${FAMILY}end`;
    expect(ed.wordBack(end(long)).cursor).toBe(long.length - 3);
    expect(ed.wordBack(end('x'.repeat(5000))).cursor).toBe(0);
    expect(ed.left(end(long)).cursor).toBe(long.length - 1);
    expect(ed.left(at(long, long.length - 3)).cursor).toBe(long.length - 3 - FAMILY.length);
  });
});

describe('↑/↓ in a multi-line text', () => {
  const h = ['older', 'newest'];
  it('move between its lines, keeping the display column; history only from the first/last line', () => {
    const text = 'first line\n日本語です\nthird';
    let s = end(text); // column 5 on "third"
    s = ed.up(s, h);
    expect(s.cursor).toBe(text.indexOf('日') + 2); // 日本 = 4 columns; 語 would pass column 5
    s = ed.up(s, h);
    expect(s.cursor).toBe(4);
    expect(s.historyIndex).toBeNull();
    s = ed.up(s, h); // first line: history
    expect(s).toMatchObject({ text: 'newest', historyIndex: 1 });
    s = ed.down(s, h); // back to the draft
    expect(s.text).toBe(text);
    const mid = ed.down(at(text, 2), h);
    expect(mid.cursor).toBe(text.indexOf('日') + 1); // column 2: after 日
    expect(ed.down(at(text, text.length - 1), h).text).toBe(text); // last line, no newer entry
  });
});

describe('insert', () => {
  it('never stores a lone surrogate, and a mark typed after a letter joins it', () => {
    expect(ed.insert(end('a'), '\ud83c')).toMatchObject({ text: 'a', cursor: 1 });
    expect(ed.insert(at('ab', 1), '\u0301')).toMatchObject({ text: 'a\u0301b', cursor: 2 });
    // a regional indicator typed before a flag pairs with its first letter: the cursor goes past the pair
    const s = ed.insert(at(FLAG, 0), '🇩');
    expect(s.text).toBe(`🇩${FLAG}`);
    expect(s.cursor).toBe(4);
  });
});
