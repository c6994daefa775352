import { describe, expect, it } from 'vitest';
import * as ed from '../../../src/frontends/repl/line-editor';

const at = (text: string, cursor: number): ed.EditorState => ({ text, cursor, historyIndex: null, draft: '' });

describe('line editor', () => {
  it('inserts at the cursor and deletes around it', () => {
    expect(ed.insert(at('ac', 1), 'b')).toMatchObject({ text: 'abc', cursor: 2 });
    expect(ed.backspace(at('abc', 2))).toMatchObject({ text: 'ac', cursor: 1 });
    expect(ed.backspace(at('abc', 0))).toMatchObject({ text: 'abc', cursor: 0 });
    expect(ed.backspace(at('a😀', 3))).toMatchObject({ text: 'a', cursor: 1 });
    expect(ed.deleteForward(at('abc', 1))).toMatchObject({ text: 'ac', cursor: 1 });
  });

  it('Ctrl-A/E move within the current line of a multi-line text', () => {
    const s = at('one\ntwo three', 9);
    expect(ed.home(s).cursor).toBe(4);
    expect(ed.end(at('one\ntwo', 1)).cursor).toBe(3);
    expect(ed.end(s).cursor).toBe(13);
  });

  it('Ctrl-U, Ctrl-K and Ctrl-W kill like readline', () => {
    expect(ed.killToStart(at('git commit -m', 4))).toMatchObject({ text: 'commit -m', cursor: 0 });
    expect(ed.killToEnd(at('git commit -m', 3))).toMatchObject({ text: 'git', cursor: 3 });
    expect(ed.killWordBack(at('git commit -m  ', 15))).toMatchObject({ text: 'git commit ', cursor: 11 });
    expect(ed.killWordBack(at('one two', 3))).toMatchObject({ text: ' two', cursor: 0 });
  });

  it('↑/↓ browse history and come back to the draft', () => {
    const h = ['first', 'second'];
    let s = at('draft', 5);
    s = ed.historyPrev(s, h);
    expect(s).toMatchObject({ text: 'second', historyIndex: 1 });
    s = ed.historyPrev(s, h);
    expect(s).toMatchObject({ text: 'first', historyIndex: 0 });
    s = ed.historyPrev(s, h);
    expect(s.text).toBe('first');
    s = ed.historyNext(s, h);
    expect(s.text).toBe('second');
    s = ed.historyNext(s, h);
    expect(s).toMatchObject({ text: 'draft', historyIndex: null, cursor: 5 });
    expect(ed.historyPrev(at('x', 1), [])).toMatchObject({ text: 'x' });
  });

  it('Tab completes a single match with a space, or to the common prefix', () => {
    expect(ed.completeWith(at(':mo', 3), [':model']).state).toMatchObject({ text: ':model ', cursor: 7 });
    const r = ed.completeWith(at(':s', 2), [':save', ':sessions']);
    expect(r.state.text).toBe(':s');
    expect(r.shown).toEqual([':save', ':sessions']);
    expect(ed.completeWith(at(':re', 3), [':resume', ':remember']).state.text).toBe(':re');
    expect(ed.completeWith(at(':mem', 4), [':memory add', ':memory list']).state.text).toBe(':memory ');
    expect(ed.commonPrefix(['abc', 'abd', 'ab'])).toBe('ab');
  });

  it('↑ walks up a text that starts with an empty line, to that line, then to history', () => {
    const h = ['older'];
    let s = at('\nfoo line\nbar line', 18);
    s = ed.up(s, h);
    expect(s.cursor).toBe(9); // end of "foo line"
    s = ed.up(s, h);
    expect(s.cursor).toBe(0); // the empty first line
    expect(ed.insert(s, 'Q').text).toBe('Q\nfoo line\nbar line');
    expect(ed.up(s, h)).toMatchObject({ text: 'older', historyIndex: 0 });
    // Ctrl-U empties line 1 of a draft: the cursor stays there, and ↑ goes to history
    const killed = ed.killToStart(at('first\nsecond', 5));
    expect(killed).toMatchObject({ text: '\nsecond', cursor: 0 });
    expect(ed.home(killed).cursor).toBe(0);
    expect(ed.killToStart(killed).text).toBe('\nsecond');
    expect(ed.up(killed, h)).toMatchObject({ text: 'older' });
  });

  it('Tab shows the words the last word may become, not the whole line each time', () => {
    expect(ed.completeWith(at(':memory ', 8), [':memory add', ':memory clear']).shown).toEqual(['add', 'clear']);
    expect(ed.completeWith(at(':memory c', 9), [':memory clear', ':memory conflicts']).shown).toEqual(['clear', 'conflicts']);
    expect(ed.completeWith(at('see @s', 6), ['see @src/', 'see @scripts/']).shown).toEqual(['@src/', '@scripts/']);
    // Of a path, what follows its last typed `/`, as a shell lists a directory.
    expect(ed.completeWith(at('see @src/', 9), ['see @src/config/', 'see @src/context/']).shown).toEqual(['config/', 'context/']);
    expect(ed.completeWith(at('@src/co', 7), ['@src/config/', '@src/context/']).shown).toEqual(['config/', 'context/']);
  });

  it('Tab into a directory leaves no space after its /', () => {
    expect(ed.completeWith(at('see @sr', 7), ['see @src/']).state).toMatchObject({ text: 'see @src/', cursor: 9 });
  });
});
