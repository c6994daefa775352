/**
 * Ctrl-R: reverse incremental search over the input history, as readline does it. Pure functions
 * over plain state (no Ink), so every key of the search is unit-tested; the App keeps the state
 * and draws it as the prompt `(reverse-i-search)'QUERY': MATCH`.
 */
import { prevBoundary } from './clusters';
import type { EditorAction } from './keymap';
import type { EditorState } from './line-editor';

export interface SearchState {
  query: string;
  /** The history entry shown (index, oldest first); null while nothing has matched yet. */
  index: number | null;
  /** Where the query starts in that entry: the cursor is shown there, as readline does. */
  at: number;
  /** The last step found nothing; the previous match stays shown. */
  failed: boolean;
  /** The line before the search, restored by Esc and Ctrl-G. */
  original: EditorState;
  /** The query of the last search, reused by Ctrl-R on an empty query (readline's habit). */
  previous: string;
}

export const startSearch = (original: EditorState, previous = ''): SearchState => ({
  query: '',
  index: null,
  at: 0,
  failed: false,
  original,
  previous,
});

/** The newest entry at or before `from` that contains `query` (case-sensitive, as bash), skipping `skip`. */
function find(history: readonly string[], query: string, from: number, skip?: string): { index: number; at: number } | null {
  for (let i = Math.min(from, history.length - 1); i >= 0; i--) {
    const entry = history[i]!;
    if (entry === skip) continue;
    const at = entry.lastIndexOf(query);
    if (at >= 0) return { index: i, at };
  }
  return null;
}

/** A new query: the shown entry first if it still matches (narrowing), else older ones. */
function searchFor(s: SearchState, query: string, history: readonly string[]): SearchState {
  if (!query) return { ...s, query, index: null, at: 0, failed: false };
  const hit = find(history, query, s.index ?? history.length - 1);
  return hit ? { ...s, query, ...hit, failed: false } : { ...s, query, failed: true };
}

/** Ctrl-R again: the next older entry with the query (the same text again is skipped). */
function searchOlder(s: SearchState, history: readonly string[]): SearchState {
  if (!s.query) return s.previous ? searchFor(s, s.previous, history) : s;
  if (s.index === null) return searchFor(s, s.query, history);
  const hit = find(history, s.query, s.index - 1, history[s.index]);
  return hit ? { ...s, ...hit, failed: false } : { ...s, failed: true };
}

export function searchPrompt(s: SearchState): string {
  return `(${s.failed ? 'failed ' : ''}reverse-i-search)'${s.query}': `;
}

/** What the line shows: the match with the cursor on the query, or the original line. */
export function searchView(s: SearchState, history: readonly string[]): EditorState {
  if (s.index === null) return s.original;
  const text = history[s.index]!;
  // ↑/↓ after accepting go on from the match, with the original line as the draft to come back to.
  return { text, cursor: s.at, historyIndex: s.index, draft: s.original.historyIndex === null ? s.original.text : s.original.draft };
}

export interface SearchStep {
  /** The search goes on with this state; null: it ended. */
  search: SearchState | null;
  /** The editor when the search ended. */
  editor?: EditorState;
  /** An action to apply to that editor next (Enter submits the accepted line, → moves in it). */
  then?: EditorAction;
}

/** One key during the search. */
export function searchKey(s: SearchState, a: EditorAction, history: readonly string[]): SearchStep {
  switch (a.type) {
    case 'insert': {
      const text = a.text.replace(/[\r\n]/g, '');
      return { search: text ? searchFor(s, s.query + text, history) : s };
    }
    case 'backspace':
      return { search: searchFor(s, s.query.slice(0, prevBoundary(s.query, s.query.length)), history) };
    case 'reverseSearch':
      return { search: searchOlder(s, history) };
    case 'escape':
    case 'abort':
      return { search: null, editor: s.original };
    case 'interrupt':
      // As in bash: the search is dropped, then Ctrl-C does what it does on the line.
      return { search: null, editor: s.original, then: a };
    default:
      // Enter, arrows, Ctrl-A/E, Tab…: accept the match into the editor, then do what the key does.
      return { search: null, editor: searchView(s, history), then: a };
  }
}
