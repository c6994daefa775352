/** Ctrl-R's reverse incremental search, key by key, without Ink. */
import { describe, expect, it } from 'vitest';
import type { EditorAction } from '../../../src/frontends/repl/keymap';
import { emptyEditor } from '../../../src/frontends/repl/line-editor';
import { searchKey, searchPrompt, searchView, startSearch, type SearchState } from '../../../src/frontends/repl/reverse-search';

// Oldest first, as InputHistory keeps them.
const HISTORY = ['git status', 'make test', 'git commit -m fix', 'ls -la', 'git commit -m fix', 'echo done'];

/** Type `keys` (strings are typed text) into a search started on `line`. */
function run(keys: Array<string | EditorAction>, line = 'draft', history = HISTORY) {
  let s: SearchState | null = startSearch(emptyEditor(line));
  let editor = null;
  let then: EditorAction | undefined;
  for (const k of keys) {
    const step = searchKey(s, typeof k === 'string' ? { type: 'insert', text: k } : k, history);
    s = step.search;
    if (step.editor) editor = step.editor;
    then = step.then;
    if (!s) break;
  }
  return { s, editor, then, view: s ? searchView(s, history) : null };
}

const ctrlR: EditorAction = { type: 'reverseSearch' };

describe('reverse-i-search', () => {
  it('starts with an empty query showing the line as it was', () => {
    const s = startSearch(emptyEditor('draft'));
    expect(searchPrompt(s)).toBe("(reverse-i-search)'': ");
    expect(searchView(s, HISTORY).text).toBe('draft');
  });

  it('typing narrows to the newest entry containing the query, the cursor on the match', () => {
    const r = run(['g', 'i', 't']);
    expect(searchPrompt(r.s!)).toBe("(reverse-i-search)'git': ");
    expect(r.view).toMatchObject({ text: 'git commit -m fix', cursor: 0 });
    const m = run(['m', 'a', 'k']);
    expect(m.view).toMatchObject({ text: 'make test', cursor: 0 });
    const t = run(['test']);
    expect(t.view).toMatchObject({ text: 'make test', cursor: 5 });
  });

  it('Ctrl-R again goes to older matches, skipping repeats of the same line', () => {
    const r = run(['git', ctrlR]);
    // the newest 'git commit -m fix' is at 4; the one at 2 is the same text: skipped
    expect(r.view!.text).toBe('git status');
    const failed = run(['git', ctrlR, ctrlR]);
    expect(searchPrompt(failed.s!)).toBe("(failed reverse-i-search)'git': ");
    expect(failed.view!.text).toBe('git status'); // the last match stays shown
  });

  it('a query nothing matches fails and keeps the previous match', () => {
    const r = run(['ls', 'x']);
    expect(r.s!.failed).toBe(true);
    expect(searchPrompt(r.s!)).toBe("(failed reverse-i-search)'lsx': ");
    expect(r.view!.text).toBe('ls -la');
  });

  it('Backspace widens the query again', () => {
    const r = run(['ls', 'x', { type: 'backspace' }]);
    expect(r.s!.failed).toBe(false);
    expect(r.s!.query).toBe('ls');
    expect(r.view!.text).toBe('ls -la');
    const empty = run(['l', { type: 'backspace' }]);
    expect(empty.view!.text).toBe('draft');
  });

  it('Enter accepts the match and submits it', () => {
    const r = run(['make', { type: 'submit' }]);
    expect(r.s).toBeNull();
    expect(r.editor!.text).toBe('make test');
    expect(r.then).toEqual({ type: 'submit' });
  });

  it('Esc and Ctrl-G restore the line as it was', () => {
    for (const key of [{ type: 'escape' }, { type: 'abort' }] as EditorAction[]) {
      const r = run(['make', key], 'my draft');
      expect(r.s).toBeNull();
      expect(r.editor).toMatchObject({ text: 'my draft', cursor: 8 });
      expect(r.then).toBeUndefined();
    }
  });

  it('← and → accept the match into the editor at the match, then move', () => {
    const r = run(['test', { type: 'left' }]);
    expect(r.s).toBeNull();
    expect(r.editor).toMatchObject({ text: 'make test', cursor: 5 });
    expect(r.then).toEqual({ type: 'left' });
    expect(run(['test', { type: 'right' }]).then).toEqual({ type: 'right' });
  });

  it('the accepted entry is the history position: ↑ goes on from it', () => {
    const r = run(['make', { type: 'end' }], 'typed');
    expect(r.editor).toMatchObject({ text: 'make test', historyIndex: 1, draft: 'typed' });
  });

  it('Ctrl-C drops the search and goes on to the line', () => {
    const r = run(['make', { type: 'interrupt' }], 'typed');
    expect(r.editor!.text).toBe('typed');
    expect(r.then).toEqual({ type: 'interrupt' });
  });

  it('Ctrl-R on an empty query reuses the previous search', () => {
    const s = startSearch(emptyEditor(''), 'make');
    const step = searchKey(s, ctrlR, HISTORY);
    expect(searchView(step.search!, HISTORY).text).toBe('make test');
  });

  it('an empty history finds nothing and keeps the line', () => {
    const r = run(['x'], 'line', []);
    expect(r.s!.failed).toBe(true);
    expect(r.view!.text).toBe('line');
  });

  it('a multi-line entry is found and accepted whole; pasted newlines in the query are dropped', () => {
    const history = ['first\nsecond line'];
    const r = run(['sec\n', { type: 'submit' }], '', history);
    expect(r.editor!.text).toBe('first\nsecond line');
  });
});
