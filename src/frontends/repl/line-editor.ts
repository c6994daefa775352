/**
 * Line-editor state and its edits as pure functions (no Ink), so every key binding is unit-tested.
 * The text may hold newlines (pasted multi-line prompts); the cursor is an index into it.
 */

export interface EditorState {
  text: string;
  cursor: number;
  /** Position in history while browsing with ↑/↓; null when editing a fresh line. */
  historyIndex: number | null;
  /** What was typed before browsing history, restored on ↓ past the newest entry. */
  draft: string;
}

export const emptyEditor = (text = ''): EditorState => ({ text, cursor: text.length, historyIndex: null, draft: '' });

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

export function insert(s: EditorState, chunk: string): EditorState {
  const text = s.text.slice(0, s.cursor) + chunk + s.text.slice(s.cursor);
  return { ...s, text, cursor: s.cursor + chunk.length, historyIndex: null };
}

export function backspace(s: EditorState): EditorState {
  if (s.cursor === 0) return s;
  // Remove a whole surrogate pair, not half of an emoji.
  const step = s.cursor >= 2 && /[\uDC00-\uDFFF]/.test(s.text[s.cursor - 1]!) && /[\uD800-\uDBFF]/.test(s.text[s.cursor - 2]!) ? 2 : 1;
  return { ...s, text: s.text.slice(0, s.cursor - step) + s.text.slice(s.cursor), cursor: s.cursor - step };
}

export function deleteForward(s: EditorState): EditorState {
  if (s.cursor >= s.text.length) return s;
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(s.cursor + 1) };
}

export const left = (s: EditorState): EditorState => ({ ...s, cursor: clamp(s.cursor - 1, 0, s.text.length) });
export const right = (s: EditorState): EditorState => ({ ...s, cursor: clamp(s.cursor + 1, 0, s.text.length) });

/** Ctrl-A: start of the current line. */
export function home(s: EditorState): EditorState {
  return { ...s, cursor: s.text.lastIndexOf('\n', s.cursor - 1) + 1 };
}

/** Ctrl-E: end of the current line. */
export function end(s: EditorState): EditorState {
  const nl = s.text.indexOf('\n', s.cursor);
  return { ...s, cursor: nl === -1 ? s.text.length : nl };
}

/** Ctrl-U: delete from the start of the line to the cursor. */
export function killToStart(s: EditorState): EditorState {
  const start = s.text.lastIndexOf('\n', s.cursor - 1) + 1;
  return { ...s, text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
}

/** Ctrl-K: delete from the cursor to the end of the line. */
export function killToEnd(s: EditorState): EditorState {
  const nl = s.text.indexOf('\n', s.cursor);
  const stop = nl === -1 ? s.text.length : nl;
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(stop) };
}

/** Ctrl-W: delete the word before the cursor (and the blanks after it), like readline. */
export function killWordBack(s: EditorState): EditorState {
  let i = s.cursor;
  while (i > 0 && /\s/.test(s.text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(s.text[i - 1]!)) i--;
  return { ...s, text: s.text.slice(0, i) + s.text.slice(s.cursor), cursor: i };
}

/** ↑: the previous history entry (history is oldest first). */
export function historyPrev(s: EditorState, history: readonly string[]): EditorState {
  if (history.length === 0) return s;
  const idx = s.historyIndex === null ? history.length - 1 : Math.max(0, s.historyIndex - 1);
  const text = history[idx]!;
  return { text, cursor: text.length, historyIndex: idx, draft: s.historyIndex === null ? s.text : s.draft };
}

/** ↓: the next history entry, then back to what was being typed. */
export function historyNext(s: EditorState, history: readonly string[]): EditorState {
  if (s.historyIndex === null) return s;
  if (s.historyIndex >= history.length - 1) return { text: s.draft, cursor: s.draft.length, historyIndex: null, draft: '' };
  const idx = s.historyIndex + 1;
  const text = history[idx]!;
  return { ...s, text, cursor: text.length, historyIndex: idx };
}

/** Longest common prefix of the candidates. */
export function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let p = words[0]!;
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Tab: given full-line candidates, complete to the single match (plus a space) or to the longest
 * common prefix. Returns the new state and the candidates to show when still ambiguous.
 */
export function completeWith(s: EditorState, candidates: readonly string[]): { state: EditorState; shown: string[] } {
  if (s.cursor !== s.text.length || candidates.length === 0) return { state: s, shown: [] };
  if (candidates.length === 1) {
    const text = candidates[0]! + ' ';
    return { state: { ...s, text, cursor: text.length }, shown: [] };
  }
  const p = commonPrefix(candidates);
  const state = p.length > s.text.length ? { ...s, text: p, cursor: p.length } : s;
  return { state, shown: [...candidates] };
}
