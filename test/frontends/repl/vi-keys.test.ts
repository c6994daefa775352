import { describe, expect, it } from 'vitest';
import type { EditorAction } from '../../../src/frontends/repl/keymap';
import { emptyEditor, type EditorState } from '../../../src/frontends/repl/line-editor';
import { viKey, viPrompt, viStart, type ViState } from '../../../src/frontends/repl/vi-keys';

/** Type `keys` (Esc written as ⎋) into a vi editor holding `text`, cursor at `cursor`. */
function run(text: string, cursor: number, keys: string, vi: ViState = { ...viStart(), mode: 'normal' }) {
  let line: EditorState = { ...emptyEditor(text), cursor };
  let state = vi;
  const passed: EditorAction[] = [];
  for (const k of Array.from(keys)) {
    const a: EditorAction = k === '⎋' ? { type: 'escape' } : { type: 'insert', text: k };
    const step = viKey(state, a, line);
    state = step.vi;
    line = step.line;
    for (const p of step.pass) {
      if (p.type === 'insert')
        line = {
          ...line,
          text: line.text.slice(0, line.cursor) + p.text + line.text.slice(line.cursor),
          cursor: line.cursor + p.text.length,
        };
      else passed.push(p);
    }
  }
  return { text: line.text, cursor: line.cursor, mode: state.mode, passed, vi: state };
}
/** The text after the cursor, to read positions at a glance. */
const rest = (r: { text: string; cursor: number }) => r.text.slice(r.cursor);

const ASCII = 'foo bar.baz qux';
const CJK = '日本語 テキスト';
const EMOJI = '👍🏽 ok 👨‍👩‍👧';

describe('vi normal-mode motions', () => {
  it('h and l move one character, within the line', () => {
    expect(rest(run(ASCII, 4, 'l'))).toBe('ar.baz qux');
    expect(rest(run(ASCII, 4, 'h'))).toBe(' bar.baz qux');
    expect(run(ASCII, 0, 'h').cursor).toBe(0);
    expect(rest(run(ASCII, 14, 'l'))).toBe('x'); // stays on the last character
    expect(rest(run(CJK, 0, 'l'))).toBe('本語 テキスト');
    expect(rest(run(CJK, 0, '2lh'))).toBe('本語 テキスト');
    expect(rest(run(EMOJI, 0, 'l'))).toBe(' ok 👨‍👩‍👧');
    expect(rest(run(EMOJI, EMOJI.length, 'h'))).toBe('👨‍👩‍👧');
  });
  it("words end where scripts change, as vim's classes have it: CJK scripts, Latin, emoji, punctuation", () => {
    expect(rest(run('日本語abc def', 0, 'w'))).toBe('abc def');
    expect(rest(run('漢字かなカナ 한국어', 0, 'w'))).toBe('かなカナ 한국어');
    expect(rest(run('漢字かなカナ 한국어', 0, '3w'))).toBe('한국어');
    expect(rest(run('foo!👍🏽🇯🇵 bar', 0, 'w'))).toBe('!👍🏽🇯🇵 bar');
    expect(rest(run('foo!👍🏽🇯🇵 bar', 0, '2w'))).toBe('👍🏽🇯🇵 bar');
    expect(rest(run('foo!👍🏽🇯🇵 bar', 0, '2e'))).toBe('!👍🏽🇯🇵 bar');
    expect(run('日本語abc', 0, 'dw').text).toBe('abc');
    expect(rest(run('abc日本語', 5, 'b'))).toBe('日本語');
  });
  it('w, b and e move by vi words (punctuation is its own word)', () => {
    expect(rest(run(ASCII, 0, 'w'))).toBe('bar.baz qux');
    expect(rest(run(ASCII, 0, '2w'))).toBe('.baz qux');
    expect(rest(run(ASCII, 0, 'e'))).toBe('o bar.baz qux');
    expect(rest(run(ASCII, 0, 'ee'))).toBe('r.baz qux');
    expect(rest(run(ASCII, 14, 'b'))).toBe('qux');
    expect(rest(run(ASCII, 14, '3b'))).toBe('.baz qux');
    expect(rest(run(CJK, 0, 'w'))).toBe('テキスト');
    expect(rest(run(CJK, 0, 'e'))).toBe('語 テキスト');
    expect(rest(run(CJK, CJK.length, 'b'))).toBe('テキスト');
    expect(rest(run(EMOJI, 0, 'w'))).toBe('ok 👨‍👩‍👧');
    expect(rest(run(EMOJI, 0, '2w'))).toBe('👨‍👩‍👧');
    expect(rest(run(EMOJI, 0, 'e'))).toBe('k 👨‍👩‍👧'); // from a one-cluster word to the next word's end
    expect(rest(run(EMOJI, EMOJI.length, '2b'))).toBe('ok 👨‍👩‍👧');
  });
  it('0 and $ go to the line ends; 0 after a count digit is part of the count', () => {
    expect(run(ASCII, 6, '0').cursor).toBe(0);
    expect(rest(run(ASCII, 0, '$'))).toBe('x');
    expect(rest(run(EMOJI, 0, '$'))).toBe('👨‍👩‍👧');
    expect(rest(run(CJK, 3, '0'))).toBe(CJK);
    expect(run('a'.repeat(20), 0, '10l').cursor).toBe(10);
  });
});

describe('vi normal-mode edits', () => {
  it('x deletes characters under the cursor, with a count', () => {
    expect(run(ASCII, 0, 'x').text).toBe('oo bar.baz qux');
    expect(run(ASCII, 0, '3x').text).toBe(' bar.baz qux');
    expect(run(CJK, 0, '2x').text).toBe('語 テキスト');
    expect(run(EMOJI, 0, 'x').text).toBe(' ok 👨‍👩‍👧');
    const last = run(EMOJI, EMOJI.length, 'hx');
    expect(last.text).toBe('👍🏽 ok ');
    expect(rest(last)).toBe(' '); // back on the last character
  });
  it('dw, d2w, 2dw, de, db, d$, d0 and dd', () => {
    expect(run(ASCII, 0, 'dw').text).toBe('bar.baz qux');
    expect(run(ASCII, 0, 'd2w').text).toBe('.baz qux');
    expect(run(ASCII, 0, '2dw').text).toBe('.baz qux');
    expect(run(ASCII, 12, 'dw').text).toBe('foo bar.baz ');
    expect(run(ASCII, 0, 'de').text).toBe(' bar.baz qux');
    expect(run(ASCII, 4, 'db').text).toBe('bar.baz qux');
    expect(run(ASCII, 4, 'd$').text).toBe('foo ');
    expect(run(ASCII, 4, 'd0').text).toBe('bar.baz qux');
    expect(run(ASCII, 4, 'dd').text).toBe('');
    expect(run(CJK, 0, 'dw').text).toBe('テキスト');
    expect(run(EMOJI, 0, 'd2w').text).toBe('👨‍👩‍👧');
    expect(run(EMOJI, 0, 'dd').text).toBe('');
  });
  it('cw changes to the end of the word and leaves insert mode with Esc', () => {
    const r = run(ASCII, 0, 'cwzap⎋');
    expect(r.text).toBe('zap bar.baz qux');
    expect(r.mode).toBe('normal');
    expect(run(CJK, 0, 'cw漢字⎋').text).toBe('漢字 テキスト');
    expect(run(EMOJI, 0, 'cw🎉⎋').text).toBe('🎉 ok 👨‍👩‍👧');
    expect(run(ASCII, 0, 'c2wX⎋').text).toBe('X.baz qux');
  });
  it('i, a, A and I enter insert mode at the right place', () => {
    expect(run(ASCII, 4, 'iX').text).toBe('foo Xbar.baz qux');
    expect(run(ASCII, 4, 'aX').text).toBe('foo bXar.baz qux');
    expect(run(ASCII, 4, 'AX').text).toBe('foo bar.baz quxX');
    expect(run('  foo', 4, 'IX').text).toBe('  Xfoo');
    expect(run(CJK, 0, 'aX').text).toBe('日X本語 テキスト');
    expect(run(EMOJI, 0, 'aX').text).toBe('👍🏽X ok 👨‍👩‍👧');
    expect(run(EMOJI, 0, 'AX').text).toBe(EMOJI + 'X');
    expect(run(ASCII, 0, 'i').mode).toBe('insert');
  });
  it('u undoes the last change, one at a time (an insert session is one change)', () => {
    expect(run(ASCII, 0, 'xu').text).toBe(ASCII);
    expect(run(ASCII, 0, 'dwxu').text).toBe('bar.baz qux');
    expect(run(ASCII, 0, 'dwxuu').text).toBe(ASCII);
    expect(run(CJK, 0, 'AXYZ⎋u').text).toBe(CJK);
    expect(run(EMOJI, 0, 'x2xuu').text).toBe(EMOJI);
    expect(run(ASCII, 0, 'u').text).toBe(ASCII);
  });
  it('counts on u and dd: 2u takes back two changes, 2dd two lines of a multi-line prompt', () => {
    expect(run(ASCII, 0, 'xxx2u').text).toBe('oo bar.baz qux');
    expect(run(ASCII, 0, 'xxx9u').text).toBe(ASCII);
    expect(run(EMOJI, 0, 'xx2u').text).toBe(EMOJI);
    expect(run('one\ntwo\nthree', 0, '2dd').text).toBe('three');
    expect(run('one\ntwo\nthree', 4, '5dd').text).toBe('one');
    expect(run('one\ntwo', 4, 'dd').text).toBe('one');
    expect(run('日本\n語\n👍🏽', 3, '2dd').text).toBe('日本');
  });
  it('k and j ask for the prompt before and after in history; in insert mode they are letters', () => {
    expect(run(ASCII, 0, 'k').passed).toEqual([{ type: 'historyPrev' }]);
    expect(run(ASCII, 0, 'j').passed).toEqual([{ type: 'historyNext' }]);
    expect(run(ASCII, 0, 'k').text).toBe(ASCII);
    expect(run('', 0, 'jk', viStart()).text).toBe('jk');
    expect(run(ASCII, 0, 'dk').passed).toEqual([]);
  });
  it('u takes back the text typed since the line started, as vi does with its first insert', () => {
    expect(run('', 0, 'hello⎋u', viStart()).text).toBe('');
    expect(run('', 0, 'hello⎋xu', viStart()).text).toBe('hello');
    expect(run('', 0, 'hello⎋xuu', viStart()).text).toBe('');
    // A line put back in the editor (a recalled or rewound prompt) comes back, not an empty one.
    expect(run('foo', 3, ' bar⎋u', viStart()).text).toBe('foo');
    // Nothing typed: nothing to undo.
    expect(run('foo', 3, '⎋u', viStart()).text).toBe('foo');
  });
});

describe('vi modes', () => {
  it('insert mode passes every key through; Esc goes to normal mode one character back', () => {
    const r = run('', 0, 'hello⎋', viStart());
    expect(r.text).toBe('hello');
    expect(r.mode).toBe('normal');
    expect(rest(r)).toBe('o');
    const ctrl = viKey(viStart(), { type: 'killToStart' }, emptyEditor('abc'));
    expect(ctrl.pass).toEqual([{ type: 'killToStart' }]);
    const e = run('日本', 2, '⎋', viStart());
    expect(rest(e)).toBe('本');
  });
  it('Enter submits from either mode and the next line starts in insert mode', () => {
    const step = viKey({ ...viStart(), mode: 'normal' }, { type: 'submit' }, emptyEditor('x'));
    expect(step.pass).toEqual([{ type: 'submit' }]);
    expect(step.vi.mode).toBe('insert');
  });
  it('Ctrl-C passes on and the next line starts in insert mode, with nothing to undo', () => {
    const normal = run(ASCII, 0, 'x').vi;
    const step = viKey(normal, { type: 'interrupt' }, emptyEditor('oo bar.baz qux'));
    expect(step.pass).toEqual([{ type: 'interrupt' }]);
    expect(step.vi.mode).toBe('insert');
    expect(step.vi.undo).toEqual([]);
    // What is typed next is text, not h, e, l, l, o.
    expect(run('', 0, 'hello', step.vi).text).toBe('hello');
  });
  it('Esc in normal mode drops a pending operator, else acts as Esc', () => {
    expect(run(ASCII, 0, 'd⎋w').text).toBe(ASCII);
    expect(run(ASCII, 0, '⎋').passed).toEqual([{ type: 'escape' }]);
  });
  it('a chunk of typed text is split between commands and inserted text', () => {
    const step = viKey({ ...viStart(), mode: 'normal' }, { type: 'insert', text: 'Axy' }, emptyEditor('ab'));
    expect(step.vi.mode).toBe('insert');
    expect(step.pass).toEqual([{ type: 'insert', text: 'xy' }]);
  });
  it('a paste in normal mode is text, not commands: after the cursor (before it in the first column), in pieces', () => {
    const normal = { ...viStart(), mode: 'normal' as const };
    const paste = (text: string): EditorAction => ({ type: 'insert', text, paste: true });
    // abc, Esc: the cursor is on c; the paste goes after it and normal mode stays
    const typed = run('', 0, 'abc⎋', viStart());
    let step = viKey(typed.vi, paste('ddxx paste here'), { ...emptyEditor(typed.text), cursor: typed.cursor });
    expect(step.line.text).toBe('abcddxx paste here');
    expect(step.vi.mode).toBe('normal');
    expect(step.pass).toEqual([]);
    // a paste that arrives in pieces stays in order, even across an empty line
    step = viKey(normal, paste('x\n'), { ...emptyEditor('ab'), cursor: 0 });
    step = viKey(step.vi, paste('\n'), step.line);
    step = viKey(step.vi, paste('iy'), step.line);
    expect(step.line.text).toBe('x\n\niyab');
    // the paste is one change for u; a key after it is a command again
    const after = run(step.line.text, step.line.cursor, 'u', step.vi);
    expect(after.text).toBe('ab');
    // a pending operator or count is dropped, not applied to the pasted text
    step = viKey({ ...normal, op: { key: 'd', count: 1 }, count: '3' }, paste('dd'), { ...emptyEditor('ab'), cursor: 1 });
    expect(step.line.text).toBe('abdd');
    expect(step.vi).toMatchObject({ op: null, count: '' });
    // in insert mode it passes through as text
    expect(viKey(viStart(), paste('dd'), emptyEditor('')).pass).toEqual([paste('dd')]);
  });

  it('the prompt shows the mode', () => {
    expect(viPrompt(viStart())).toContain('[I]');
    expect(viPrompt({ ...viStart(), mode: 'normal' })).toContain('[N]');
  });
});
