/** An editing action from the keymap applied to the line editor (the keys that only edit text). */
import type { EditorAction } from './keymap';
import * as ed from './line-editor';

const EDITS: Partial<Record<EditorAction['type'], (s: ed.EditorState) => ed.EditorState>> = {
  backspace: ed.backspace,
  deleteForward: ed.deleteForward,
  left: ed.left,
  right: ed.right,
  wordLeft: ed.wordBack,
  wordRight: ed.wordForward,
  home: ed.home,
  end: ed.end,
  killToStart: ed.killToStart,
  killToEnd: ed.killToEnd,
  killWord: ed.killWordBack,
  killWordForward: ed.killWordForward,
  killWordBack: ed.killWordBackAlnum,
};

/** The next state, or null when the action is not an edit (the App handles it). */
export function edit(s: ed.EditorState, a: EditorAction, history: readonly string[]): ed.EditorState | null {
  if (a.type === 'insert') return ed.insert(s, a.text);
  // ↑/↓ move between the lines of a multi-line text first, then through history.
  if (a.type === 'historyPrev') return ed.up(s, history);
  if (a.type === 'historyNext') return ed.down(s, history);
  return EDITS[a.type]?.(s) ?? null;
}
