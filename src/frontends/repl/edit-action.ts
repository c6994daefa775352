/** An editing action from the keymap applied to the line editor (the keys that only edit text). */
import type { EditorAction } from './keymap';
import * as ed from './line-editor';

/** The next state, or null when the action is not an edit (the App handles it). */
export function edit(s: ed.EditorState, a: EditorAction, history: readonly string[]): ed.EditorState | null {
  switch (a.type) {
    case 'insert':
      return ed.insert(s, a.text);
    case 'backspace':
      return ed.backspace(s);
    case 'deleteForward':
      return ed.deleteForward(s);
    case 'left':
      return ed.left(s);
    case 'right':
      return ed.right(s);
    case 'wordLeft':
      return ed.wordBack(s);
    case 'wordRight':
      return ed.wordForward(s);
    case 'home':
      return ed.home(s);
    case 'end':
      return ed.end(s);
    case 'killToStart':
      return ed.killToStart(s);
    case 'killToEnd':
      return ed.killToEnd(s);
    case 'killWord':
      return ed.killWordBack(s);
    case 'killWordForward':
      return ed.killWordForward(s);
    case 'killWordBack':
      return ed.killWordBackAlnum(s);
    // ↑/↓ move between the lines of a multi-line text first, then through history.
    case 'historyPrev':
      return ed.up(s, history);
    case 'historyNext':
      return ed.down(s, history);
    default:
      return null;
  }
}
