/**
 * The REPL screen: finished output in <Static>, then the live answer, the input line and the status
 * line. Keys go through keymap.ts to pure line-editor edits; the engine does everything else.
 */
import { Box, Static, Text, useApp, useInput, useStdout } from 'ink';
import { useCallback, useRef, useState, useSyncExternalStore } from 'react';
import { completeLine } from '../commands/registry';
import type { Engine } from '../engine/engine';
import type { InputHistory } from '../history/input-history';
import { HistoryItem } from './components/HistoryItem';
import { InputLine } from './components/InputLine';
import { LiveArea } from './components/LiveArea';
import { StatusLine } from './components/StatusLine';
import type { InkHostControls } from './ink-host';
import { keyToActions, type EditorAction, type PasteState } from './keymap';
import * as ed from './line-editor';
import type { UiStore } from './store';

export interface AppProps {
  store: UiStore;
  engine: Engine;
  controls: InkHostControls;
  history: InputHistory;
  onExit: () => void;
}

const DOUBLE_CTRL_C_MS = 2000;

export function App({ store, engine, controls, history, onExit }: AppProps) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { exit } = useApp();
  const { stdout } = useStdout();
  const [editor, setEditor] = useState<ed.EditorState>(ed.emptyEditor());
  const [askEditor, setAskEditor] = useState<ed.EditorState | null>(null);
  const paste = useRef<PasteState>({ active: false });
  const lastCtrlC = useRef(0);
  const asking = snap.ask !== null;
  const width = stdout.columns || 80;
  const rows = stdout.rows || 24;

  // A question arrived: give it its own editor, pre-filled if asked to.
  if (asking && askEditor === null) setAskEditor(ed.emptyEditor(snap.ask!.initial ?? ''));
  if (!asking && askEditor !== null) setAskEditor(null);

  const quit = useCallback(() => {
    exit();
    onExit();
  }, [exit, onExit]);

  const submit = useCallback(
    (text: string) => {
      if (engine.busy) {
        store.setNotice('busy — wait for the answer, or Ctrl-C to cancel it');
        return false;
      }
      store.setNotice(null);
      history.add(text);
      if (text.trim()) controls.host.print({ kind: 'user', text });
      void engine.submit(text).then((r) => {
        if (r.quit) quit();
      });
      return true;
    },
    [engine, store, history, controls, quit],
  );

  const apply = (a: EditorAction) => {
    if (asking) {
      const cur = askEditor ?? ed.emptyEditor();
      if (a.type === 'submit') return controls.answer(cur.text);
      if (a.type === 'interrupt' || a.type === 'eof') return controls.answer(null);
      const next = edit(cur, a, []);
      if (next) setAskEditor(next);
      return;
    }
    switch (a.type) {
      case 'submit':
        if (submit(editor.text)) setEditor(ed.emptyEditor());
        return;
      case 'interrupt': {
        if (engine.cancel()) return;
        if (editor.text) {
          setEditor(ed.emptyEditor());
          return;
        }
        const now = Date.now();
        if (now - lastCtrlC.current < DOUBLE_CTRL_C_MS) return quit();
        lastCtrlC.current = now;
        store.setNotice('press Ctrl-C again to quit (or Ctrl-D)');
        return;
      }
      case 'eof':
        if (!editor.text) return quit();
        setEditor(ed.deleteForward(editor));
        return;
      case 'complete': {
        const r = ed.completeWith(editor, completeLine(engine, editor.text));
        setEditor(r.state);
        store.setNotice(r.shown.length ? r.shown.join('  ') : null);
        return;
      }
      default: {
        const next = edit(editor, a, history.entries);
        if (next) setEditor(next);
        if (snap.notice) store.setNotice(null);
      }
    }
  };

  useInput(
    (input, key) => {
      for (const a of keyToActions(input, key, paste.current)) apply(a);
    },
    { isActive: !snap.handedOff },
  );

  if (snap.handedOff) return <Static items={snap.items}>{(it) => <HistoryItem key={it.id} entry={it} />}</Static>;

  return (
    <>
      <Static items={snap.items}>{(it) => <HistoryItem key={it.id} entry={it} />}</Static>
      <Box flexDirection="column">
        {snap.live ? <LiveArea live={snap.live} rows={Math.max(3, rows - 8)} width={width} /> : null}
        {asking ? (
          <InputLine state={askEditor ?? ed.emptyEditor()} prompt={snap.ask!.question} dim={false} />
        ) : (
          <InputLine state={editor} prompt="› " dim={engine.busy} />
        )}
        {snap.notice ? <Text dimColor>{snap.notice}</Text> : null}
        <StatusLine status={snap.status} width={width} />
      </Box>
    </>
  );
}

function edit(s: ed.EditorState, a: EditorAction, history: readonly string[]): ed.EditorState | null {
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
    case 'historyPrev':
      return ed.historyPrev(s, history);
    case 'historyNext':
      return ed.historyNext(s, history);
    default:
      return null;
  }
}
