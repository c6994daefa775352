/**
 * Line-editor state and its edits as pure functions (no Ink), so every key binding is unit-tested.
 * The text may hold newlines (pasted multi-line prompts); the cursor is an index into it, always
 * on a grapheme-cluster boundary (clusters.ts), so no edit splits an emoji or a surrogate pair.
 */
import { atColumn, columnOf, lineEnd, lineStart, nextBoundary, prevBoundary, snapForward, wordLeft, wordRight } from './clusters';

export interface EditorState {
  text: string;
  cursor: number;
  /** Position in history while browsing with ↑/↓; null when editing a fresh line. */
  historyIndex: number | null;
  /** What was typed before browsing history, restored on ↓ past the newest entry. */
  draft: string;
}

export const emptyEditor = (text = ''): EditorState => ({ text, cursor: text.length, historyIndex: null, draft: '' });

// A lone surrogate can only come from a broken decoder; it must never reach the text (or the log).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function insert(s: EditorState, chunk: string): EditorState {
  const clean = chunk.replace(LONE_SURROGATE, '');
  const text = s.text.slice(0, s.cursor) + clean + s.text.slice(s.cursor);
  // A combining mark or a second flag letter joins the cluster before it: keep the cursor after it.
  return { ...s, text, cursor: snapForward(text, s.cursor + clean.length), historyIndex: null };
}

/** Delete the text between two boundaries; the cursor ends at the first. */
function cut(s: EditorState, from: number, to: number): EditorState {
  if (from === to) return s;
  return { ...s, text: s.text.slice(0, from) + s.text.slice(to), cursor: from };
}

/** Backspace: the whole grapheme cluster before the cursor (an emoji, a flag, é with its accent). */
export const backspace = (s: EditorState): EditorState => cut(s, prevBoundary(s.text, s.cursor), s.cursor);

/** Delete (and Ctrl-D on a non-empty line): the cluster under the cursor. */
export const deleteForward = (s: EditorState): EditorState => cut(s, s.cursor, nextBoundary(s.text, s.cursor));

export const left = (s: EditorState): EditorState => ({ ...s, cursor: prevBoundary(s.text, s.cursor) });
export const right = (s: EditorState): EditorState => ({ ...s, cursor: nextBoundary(s.text, s.cursor) });

/** Alt-b, Ctrl-←: to the start of this or the previous word (letters and digits). */
export const wordBack = (s: EditorState): EditorState => ({ ...s, cursor: wordLeft(s.text, s.cursor) });

/** Alt-f, Ctrl-→: to the end of this or the next word. */
export const wordForward = (s: EditorState): EditorState => ({ ...s, cursor: wordRight(s.text, s.cursor) });

/** Alt-d: delete to the end of this or the next word. */
export const killWordForward = (s: EditorState): EditorState => cut(s, s.cursor, wordRight(s.text, s.cursor));

/** Alt-Backspace: delete to the start of this or the previous word (readline's backward-kill-word). */
export const killWordBackAlnum = (s: EditorState): EditorState => cut(s, wordLeft(s.text, s.cursor), s.cursor);

/** Ctrl-A: start of the current line. */
export function home(s: EditorState): EditorState {
  return { ...s, cursor: lineStart(s.text, s.cursor) };
}

/** Ctrl-E: end of the current line. */
export function end(s: EditorState): EditorState {
  const nl = s.text.indexOf('\n', s.cursor);
  return { ...s, cursor: nl === -1 ? s.text.length : nl };
}

/** Ctrl-U: delete from the start of the line to the cursor. */
export function killToStart(s: EditorState): EditorState {
  const start = lineStart(s.text, s.cursor);
  return { ...s, text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
}

/** Ctrl-K: delete from the cursor to the end of the line. */
export function killToEnd(s: EditorState): EditorState {
  const nl = s.text.indexOf('\n', s.cursor);
  const stop = nl === -1 ? s.text.length : nl;
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(stop) };
}

/** Ctrl-W: delete the blank-separated word before the cursor (and the blanks after it), like readline. */
export function killWordBack(s: EditorState): EditorState {
  let i = s.cursor;
  const blankBefore = (p: number) => /\s/.test(s.text[p - 1]!);
  while (i > 0 && blankBefore(i)) i--;
  // By cluster: a mark after a blank belongs to the blank's cluster, and the cut must not split it.
  while (i > 0 && !blankBefore(i)) i = prevBoundary(s.text, i);
  return cut(s, i, s.cursor);
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

/** ↑: the line above in a multi-line text (same display column), from the first line the previous entry. */
export function up(s: EditorState, history: readonly string[]): EditorState {
  const start = lineStart(s.text, s.cursor);
  if (start === 0) return historyPrev(s, history);
  return { ...s, cursor: atColumn(s.text, lineStart(s.text, start - 1), columnOf(s.text, s.cursor)) };
}

/** ↓: the line below in a multi-line text, from the last line the next entry. */
export function down(s: EditorState, history: readonly string[]): EditorState {
  const stop = lineEnd(s.text, s.cursor);
  if (stop === s.text.length) return historyNext(s, history);
  return { ...s, cursor: atColumn(s.text, stop + 1, columnOf(s.text, s.cursor)) };
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
    // A directory (`@src/`) is completed into, not past.
    const text = candidates[0]!.endsWith('/') ? candidates[0]! : candidates[0]! + ' ';
    return { state: { ...s, text, cursor: text.length }, shown: [] };
  }
  const p = commonPrefix(candidates);
  const state = p.length > s.text.length ? { ...s, text: p, cursor: p.length } : s;
  // Shown as a shell shows them: the words the last word may become, not the whole line each time
  // (`add  clear`, not `:memory add  :memory clear`), and of a path only what follows its last
  // typed `/` (`config/  context/`, not `@src/config/  @src/context/`).
  const word = s.text.search(/\S*$/);
  const before = s.text.slice(0, word + s.text.slice(word).lastIndexOf('/') + 1);
  return { state, shown: candidates.map((c) => (c.startsWith(before) ? c.slice(before.length) : c)) };
}
