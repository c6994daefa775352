/**
 * The REPL screen: finished output in <Static>, then the live answer, the input line and the status
 * line. Keys go through keymap.ts to pure line-editor edits; the session (through `input`) does everything else.
 */
import { Box, Text, measureElement, useInput, useStdin, useStdout, type DOMElement } from 'ink';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { SessionHandle } from '../../input/router';
import type { InputHistory } from '../../sessions/input-history';
import { InputLine, inputRowCount } from './components/InputLine';
import { LiveArea, liveRows } from './components/LiveArea';
import { MAX_QUEUED_ROWS, QueuedLines } from './components/QueuedLines';
import { StatusLine } from './components/StatusLine';
import { edit } from './edit-action';
import type { InkHostControls } from './ink-host';
import { clearScreen, suspend, type Screen } from './job-control';
import { keyToActions, type EditorAction, type PasteState } from './keymap';
import * as ed from './line-editor';
import { searchKey, searchPrompt, searchView, startSearch, type SearchState } from './reverse-search';
import { Scrollback } from './scrollback';
import type { UiStore } from './store';
import { useTerminalSize } from './terminal-size';
import { TypeAhead } from './type-ahead';
import { viKey, viPrompt, viStart, type ViState } from './vi-keys';

export interface AppProps {
  store: UiStore;
  /** Lines, Tab, Ctrl-C and busy: all the App asks of the session. */
  input: SessionHandle;
  controls: InkHostControls;
  history: InputHistory;
  onExit: () => void;
  /** Erase Ink's live frame (the Ink instance's clear()), for Ctrl-Z. */
  eraseFrame?: () => void;
  /** The line-editing keys now (`editor.keys`, changed by `:set keys`); emacs when absent. */
  keys?: () => 'emacs' | 'vi';
}

const DOUBLE_CTRL_C_MS = 2000;

export function App({ store, input, controls, history, onExit, eraseFrame, keys }: AppProps) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { stdout, write } = useStdout();
  const { internal_eventEmitter: keyEvents } = useStdin();
  const frame = useRef<DOMElement>(null);
  const screen: Screen = {
    writeAbove: write,
    eraseFrame: () => eraseFrame?.(),
    frameRows: () => (frame.current ? measureElement(frame.current).height : 0),
  };
  // The sequence behind the key event being handled (Ink's Key cannot tell Delete from Backspace).
  // Subscribed once, before useInput's listener (which re-subscribes every render), so it runs first.
  const rawKey = useRef('');
  useEffect(() => {
    const onRaw = (data: string) => (rawKey.current = data);
    keyEvents.on('input', onRaw);
    return () => void keyEvents.removeListener('input', onRaw);
  }, [keyEvents]);
  // Several key events can arrive in one tick, before React re-renders: the refs are the truth,
  // the state only makes React draw them.
  const [editor, setEditorState] = useState<ed.EditorState>(() => ed.emptyEditor());
  const [askEditor, setAskEditorState] = useState<ed.EditorState | null>(null);
  const editorRef = useRef(editor);
  const askRef = useRef(askEditor);
  const setEditor = (e: ed.EditorState) => {
    editorRef.current = e;
    setEditorState(e);
  };
  const setAskEditor = (e: ed.EditorState | null) => {
    askRef.current = e;
    setAskEditorState(e);
  };
  // Ctrl-R: while set, keys edit the search (reverse-search.ts) instead of the line.
  const [search, setSearchState] = useState<SearchState | null>(null);
  const searchRef = useRef(search);
  const setSearch = (s: SearchState | null) => {
    searchRef.current = s;
    setSearchState(s);
  };
  // vi mode's state (vi-keys.ts); read through keys() on every key so `:set keys` acts at once.
  const [vi, setViState] = useState<ViState>(viStart);
  const viRef = useRef(vi);
  const setVi = (v: ViState) => {
    viRef.current = v;
    setViState(v);
  };
  const viOn = keys?.() === 'vi';
  const lastQuery = useRef('');
  const paste = useRef<PasteState>({ active: false });
  const lastCtrlC = useRef(0);
  const asking = snap.ask !== null;
  const size = useTerminalSize(stdout, { paused: snap.handedOff, write, redraw: () => controls.rewrap() });
  const width = size.columns;
  const rows = size.rows;

  // A question arrived: give it its own editor, pre-filled if asked to.
  const askKey = useRef<unknown>(null);
  if (asking && askKey.current !== snap.ask) {
    askKey.current = snap.ask;
    setAskEditor(ed.emptyEditor(snap.ask!.initial ?? ''));
  }
  if (!asking && askKey.current !== null) {
    askKey.current = null;
    setAskEditor(null);
  }

  // A command gave text back to edit (`:rewind`): it becomes the line.
  const draftKey = useRef<unknown>(null);
  if (snap.draft && draftKey.current !== snap.draft) {
    draftKey.current = snap.draft;
    setEditor(ed.emptyEditor(snap.draft.text));
  }

  // runRepl unmounts and restores the terminal; exiting Ink from here would skip that.
  const quit = useCallback(() => onExit(), [onExit]);

  // Lines typed while a turn runs wait in order (type-ahead.ts); the prompt is echoed when it runs.
  const [queued, setQueued] = useState<readonly string[]>([]);
  const [typeAhead] = useState(
    () =>
      new TypeAhead({
        busy: () => input.busy,
        changed: (q) => setQueued([...q]),
        run: async (text) => {
          store.setNotice(null);
          if (text.trim()) controls.host.print({ kind: 'user', text });
          if ((await input.submit(text)).quit) {
            quit();
            return 'stop';
          }
        },
      }),
  );
  // Work the queue did not start (its own lines it follows itself) has ended: the next line may run.
  useEffect(() => {
    if (!snap.status.busy) typeAhead.next();
  }, [snap.status.busy, typeAhead]);

  const submit = (text: string): boolean => {
    if (input.busy && /^:norris\s+stop\s*$/.test(text.trim())) {
      controls.host.print({ kind: 'user', text });
      input.cancel();
      store.setNotice('stopping Norris…', { whileBusy: true });
      return true;
    }
    history.add(text);
    return typeAhead.submit(text) !== 'ignored';
  };

  /** One action on the current editor state; returns the next state (several may come per key event). */
  const apply = (cur: ed.EditorState, a: EditorAction): ed.EditorState => {
    switch (a.type) {
      case 'submit':
        return submit(cur.text) ? ed.emptyEditor() : cur;
      case 'interrupt': {
        if (input.cancel()) return cur;
        if (cur.text) return ed.emptyEditor();
        const now = Date.now();
        if (now - lastCtrlC.current < DOUBLE_CTRL_C_MS) quit();
        else {
          lastCtrlC.current = now;
          store.setNotice('press Ctrl-C again to quit (or Ctrl-D)');
        }
        return cur;
      }
      case 'eof':
        if (!cur.text) {
          quit();
          return cur;
        }
        return ed.deleteForward(cur);
      case 'escape':
        typeAhead.removeLast(); // Esc takes back the line typed ahead last
        return cur;
      case 'reverseSearch':
        setSearch(startSearch(cur, lastQuery.current));
        return cur;
      case 'complete': {
        const r = ed.completeWith(cur, input.complete(cur.text));
        store.setNotice(r.shown.length ? r.shown.join('  ') : null);
        return r.state;
      }
      default: {
        if (snap.notice) store.setNotice(null);
        return edit(cur, a, history.entries) ?? cur;
      }
    }
  };

  /** While a question is pending, keys edit its answer instead. */
  const applyAsk = (cur: ed.EditorState, a: EditorAction): ed.EditorState | null => {
    if (a.type === 'submit') {
      controls.answer(cur.text);
      return null;
    }
    // A menu's key acts at once; typed after other text, or pasted, it is just text.
    const keys = snap.ask?.keys;
    if (keys && a.type === 'insert' && !a.paste && cur.text === '' && a.text.length === 1 && keys.includes(a.text.toLowerCase())) {
      controls.answer(a.text);
      return null;
    }
    if (a.type === 'interrupt' || a.type === 'eof') {
      controls.answer(null);
      return null;
    }
    return edit(cur, a, []) ?? cur;
  };

  /** Ctrl-L and Ctrl-Z act on the screen, the same whether or not a question waits. */
  const screenKey = (a: EditorAction): boolean => {
    if (a.type === 'clearScreen') {
      clearScreen(screen);
      store.forgetWritten();
    } else if (a.type === 'suspend') suspend(screen);
    else return false;
    return true;
  };

  useInput(
    (input, key) => {
      const actions = keyToActions(input, key, paste.current, rawKey.current);
      rawKey.current = '';
      if (actions.length === 0) return;
      if (asking) {
        let cur: ed.EditorState | null = askRef.current ?? ed.emptyEditor();
        for (const a of actions) {
          if (cur === null) break;
          if (!screenKey(a)) cur = applyAsk(cur, a);
        }
        setAskEditor(cur);
        return;
      }
      let cur = editorRef.current;
      for (const a of actions) {
        if (screenKey(a)) continue;
        const s = searchRef.current;
        if (!s && keys?.() === 'vi') {
          const step = viKey(viRef.current, a, cur);
          setVi(step.vi);
          cur = step.line;
          for (const p of step.pass) cur = apply(cur, p);
          continue;
        }
        if (!s) {
          cur = apply(cur, a);
          continue;
        }
        const step = searchKey(s, a, history.entries);
        setSearch(step.search);
        if (!step.search) lastQuery.current = s.query || lastQuery.current;
        if (step.editor) cur = step.editor;
        if (step.then) cur = apply(cur, step.then);
      }
      setEditor(cur);
    },
    { isActive: !snap.handedOff },
  );

  // The live area and the input box together stay shorter than the terminal.
  const maxInputRows = Math.max(3, Math.floor(rows / 3));
  const shown = search
    ? { state: searchView(search, history.entries), prompt: searchPrompt(search) }
    : { state: editor, prompt: viOn ? viPrompt(vi) : '› ' };
  const inputRows =
    Math.min(maxInputRows + 2, inputRowCount(shown.state, width, shown.prompt)) - 1 + Math.min(queued.length, MAX_QUEUED_ROWS);
  // A new key after a full redraw (terminal-size.ts) prints every item again, at the new width.
  const scrollback = <Scrollback store={store} snap={snap} epoch={size.epoch} width={width} />;

  if (snap.handedOff) return scrollback;

  return (
    <>
      {scrollback}
      <Box flexDirection="column" ref={frame}>
        {snap.live ? <LiveArea live={snap.live} rows={liveRows(rows, inputRows)} width={width} /> : null}
        <QueuedLines queued={queued} width={width} />
        {asking ? (
          <InputLine state={askEditor ?? ed.emptyEditor()} prompt={snap.ask!.question} dim={false} width={width} />
        ) : (
          <InputLine state={shown.state} prompt={shown.prompt} dim={input.busy && !search} width={width} maxLines={maxInputRows} />
        )}
        {snap.notice ? <Text dimColor>{snap.notice}</Text> : null}
        <StatusLine status={snap.status} width={width} />
      </Box>
    </>
  );
}
