import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { chunkActions, keyToActions, type EditorAction, type PasteState } from '../../../src/frontends/repl/keymap';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const k = (over: Partial<Key>): Key => ({ ...noKey, ...over });
const fresh = (): PasteState => ({ active: false });

describe('keyToActions', () => {
  it('maps control keys to editing actions', () => {
    const cases: Array<[string, Partial<Key>, string]> = [
      ['c', { ctrl: true }, 'interrupt'],
      ['d', { ctrl: true }, 'eof'],
      ['a', { ctrl: true }, 'home'],
      ['e', { ctrl: true }, 'end'],
      ['u', { ctrl: true }, 'killToStart'],
      ['w', { ctrl: true }, 'killWord'],
      ['k', { ctrl: true }, 'killToEnd'],
      ['', { return: true }, 'submit'],
      ['', { tab: true }, 'complete'],
      ['', { delete: true }, 'backspace'], // \x7f from a terminal's Backspace key
      ['', { backspace: true }, 'backspace'],
      ['', { upArrow: true }, 'historyPrev'],
      ['', { downArrow: true }, 'historyNext'],
      ['', { leftArrow: true }, 'left'],
      ['', { rightArrow: true }, 'right'],
    ];
    for (const [input, key, type] of cases)
      expect(keyToActions(input, k(key), fresh()), `${input} ${JSON.stringify(key)}`).toEqual([{ type }]);
  });

  it('readline word keys, Ctrl-L, Ctrl-Z, and Delete apart from Backspace', () => {
    // [input as Ink reports it, Key, raw sequence, action]
    const cases: Array<[string, Partial<Key>, string, string]> = [
      ['b', { meta: true }, '\x1bb', 'wordLeft'],
      ['f', { meta: true }, '\x1bf', 'wordRight'],
      ['d', { meta: true }, '\x1bd', 'killWordForward'],
      ['', { leftArrow: true, ctrl: true }, '\x1b[1;5D', 'wordLeft'],
      ['', { rightArrow: true, ctrl: true }, '\x1b[1;5C', 'wordRight'],
      ['', { leftArrow: true, meta: true }, '\x1b[1;3D', 'wordLeft'],
      ['', { delete: true, meta: true }, '\x1b\x7f', 'killWordBack'],
      ['', { backspace: true, meta: true }, '\x1b\b', 'killWordBack'],
      ['l', { ctrl: true }, '\x0c', 'clearScreen'],
      ['z', { ctrl: true }, '\x1a', 'suspend'],
      ['', { delete: true }, '\x1b[3~', 'deleteForward'],
      ['', { delete: true }, '\x7f', 'backspace'],
      ['', { delete: true }, '', 'backspace'],
    ];
    for (const [input, key, raw, type] of cases) expect(keyToActions(input, k(key), fresh(), raw), JSON.stringify(raw)).toEqual([{ type }]);
    // an unbound Alt-letter is not text
    expect(keyToActions('x', k({ meta: true }), fresh(), '\x1bx')).toEqual([]);
    expect(chunkActions('ab\x0c\x1a')).toEqual([{ type: 'insert', text: 'ab' }, { type: 'clearScreen' }, { type: 'suspend' }]);
  });

  it('Ctrl-R searches, Ctrl-G aborts, a lone Esc is its own key (queued lines, the search)', () => {
    expect(keyToActions('r', k({ ctrl: true }), fresh())).toEqual([{ type: 'reverseSearch' }]);
    expect(keyToActions('g', k({ ctrl: true }), fresh())).toEqual([{ type: 'abort' }]);
    // Ink reports a lone ESC with escape and meta set and no input
    expect(keyToActions('', k({ escape: true, meta: true }), fresh(), '\x1b')).toEqual([{ type: 'escape' }]);
    expect(chunkActions('ab\x12')).toEqual([{ type: 'insert', text: 'ab' }, { type: 'reverseSearch' }]);
  });

  it('Alt-Enter inserts a newline instead of submitting', () => {
    expect(keyToActions('\r', k({ return: true, meta: true }), fresh())).toEqual([{ type: 'insert', text: '\n' }]);
  });

  it('takes everything between bracketed-paste markers as text, newlines and tabs included', () => {
    const p = fresh();
    expect(keyToActions('[200~', k({}), p)).toEqual([]);
    expect(p.active).toBe(true);
    // Held until the end marker: one insert for the whole paste, not one per read.
    expect(keyToActions('line one\r\tline two', k({}), p)).toEqual([]);
    expect(keyToActions('', k({ return: true }), p)).toEqual([]);
    expect(keyToActions('[201~', k({}), p)).toEqual([{ type: 'insert', text: 'line one\n\tline two\n', paste: true }]);
    expect(p.active).toBe(false);
    expect(keyToActions('', k({ return: true }), p)).toEqual([{ type: 'submit' }]);
  });

  it('gives a long paste to the editor in a few large pieces, all of it in order', () => {
    const p = fresh();
    keyToActions('[200~', k({}), p);
    const piece = 'x'.repeat(4095) + '\r';
    const got: EditorAction[] = [];
    for (let i = 0; i < 1200; i++) got.push(...keyToActions(piece, k({}), p));
    got.push(...keyToActions('end[201~', k({}), p));
    expect(got.length).toBeLessThanOrEqual(20);
    expect(got.map((a) => (a.type === 'insert' ? a.text : '')).join('')).toBe(('x'.repeat(4095) + '\n').repeat(1200) + 'end');
  });

  it('drops escape sequences and control characters from typed text', () => {
    expect(keyToActions('a\x1b[31mb\x07', k({}), fresh())).toEqual([{ type: 'insert', text: 'ab' }]);
  });
});

describe('chunkActions (several characters in one event)', () => {
  it('fast typing then Enter: text, then submit', () => {
    expect(chunkActions('hello\r')).toEqual([{ type: 'insert', text: 'hello' }, { type: 'submit' }]);
  });
  it('an unbracketed paste keeps its lines together and submits at a final \\r', () => {
    expect(chunkActions('a\rb\r\tc\r')).toEqual([{ type: 'insert', text: 'a\nb\n\tc', paste: true }, { type: 'submit' }]);
    expect(chunkActions('a\r\nb')).toEqual([{ type: 'insert', text: 'a\nb', paste: true }]);
  });
  it('control characters in a typed burst are keys', () => {
    expect(chunkActions(':mo\t')).toEqual([{ type: 'insert', text: ':mo' }, { type: 'complete' }]);
    expect(chunkActions('ab\x7fc')).toEqual([{ type: 'insert', text: 'ab' }, { type: 'backspace' }, { type: 'insert', text: 'c' }]);
    expect(chunkActions('x\x03')).toEqual([{ type: 'insert', text: 'x' }, { type: 'interrupt' }]);
  });
});

describe('several Enters in one read', () => {
  it('are Enter, not a paste of empty lines', () => {
    expect(chunkActions('\r\r\r\r')).toEqual([{ type: 'submit' }]);
    expect(chunkActions('\n\r\n')).toEqual([{ type: 'submit' }]);
  });
});
