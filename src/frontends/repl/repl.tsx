/**
 * `aish` on a terminal: the Ink REPL. The engine is created first (config and paths are already
 * loaded; a bad --resume fails here, before anything is drawn), then raw mode goes on and Ink
 * mounts the App, which draws the first frame and reads keys. Background work (memory, MCP, the
 * model client) starts once that first frame is on screen.
 */
import { blankStatus } from '../../core/status';
import { render } from 'ink';
import type { Setup } from '../../config/setup';
import { Engine } from '../../core/engine';
import type { EngineOptions } from '../../core/options';
import { routerFor } from '../../input/router';
import { InputHistory } from '../../sessions/input-history';
import { startAutoSync } from '../auto-sync';
import { handOffCapture } from '../capture-handoff';
import { closeOnHangup } from '../signals';
import { App } from './App';
import { createInkHost } from './ink-host';
import { setOutputMode } from '../../util/output-guard';
import { UiStore } from './store';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, SHOW_CURSOR } from './terminal-codes';
import { flushCompileCache } from '../../util/compile-cache';

/** Resolves on Ink's next render (its onRender callback), then once more through the event loop for its write. */
class Renders {
  private waiting: Array<() => void> = [];
  rendered(): void {
    for (const w of this.waiting.splice(0)) w();
  }
  next(): Promise<void> {
    return new Promise<void>((r) => this.waiting.push(r)).then(() => new Promise<void>((r) => setImmediate(r)));
  }
}

/** Resolves once the status line no longer shows work running. */
function untilIdle(store: UiStore): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (store.getSnapshot().status.busy) return;
      stop();
      resolve();
    };
    const stop = store.subscribe(check);
    check();
  });
}

export async function runRepl(setup: Setup, opts: EngineOptions): Promise<number> {
  const stdout = process.stdout;
  const color = !process.env.NO_COLOR && stdout.hasColors?.() !== false;
  const ignoreSigint = () => {};
  const renders = new Renders();
  // The store needs a status before the engine exists; the engine's own replaces it at once.
  const store = new UiStore(blankStatus());

  const controls = createInkHost(store, {
    color,
    width: () => stdout.columns || 80,
    rows: () => stdout.rows || 24,
    onHandOff: async (active) => {
      if (active) {
        stdout.write(BRACKETED_PASTE_OFF);
        const drawn = renders.next();
        store.setHandedOff(true); // stops useInput: raw mode off
        await drawn; // Ink has drawn the frame without the prompt
        process.stdin.pause(); // otherwise Node keeps reading the child's keystrokes
        process.on('SIGINT', ignoreSigint);
      } else {
        process.removeListener('SIGINT', ignoreSigint);
        stdout.write('\n');
        // Raw mode before the UI is back: a key typed right away must not be cooked by the terminal
        // (a cooked Ctrl-D would end stdin).
        if (process.stdin.isTTY) process.stdin.setRawMode(true);
        store.setHandedOff(false);
        stdout.write(BRACKETED_PASTE_ON);
      }
    },
  });

  const [engine, input] = Engine.compose(setup, controls.host, opts, routerFor);
  store.setStatus(engine.status());
  const history = new InputHistory(setup.paths.inputHistory);

  let resolveExit!: () => void;
  const exited = new Promise<void>((r) => (resolveExit = r));

  // Ink's frames need cursor movement and screen modes; its text nodes keep only colours, so
  // nothing else can ride on them (the boundary still removes the rest).
  setOutputMode('screen');
  stdout.write(BRACKETED_PASTE_ON);
  // Raw mode in the same synchronous step that mounts the App (Ink's useInput would turn it on a
  // moment after drawing the first frame): a key typed as the prompt appears is not cooked by the
  // terminal (echoed, Enter turned into a newline); it waits unread until the App's handler reads it.
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  // Ctrl-Z erases the live frame through the instance, which exists only once render() returns.
  let eraseFrame = () => {};
  const firstFrame = renders.next(); // before render(): Ink may draw the first frame inside it
  const ink = render(
    <App
      store={store}
      input={input}
      controls={controls}
      history={history}
      onExit={() => resolveExit()}
      eraseFrame={() => eraseFrame()}
      keys={() => setup.config.editor.keys}
    />,
    {
      exitOnCtrlC: false,
      patchConsole: false,
      // Streaming is already batched to ~30 updates a second by the store; a keystroke must not wait
      // behind that throttle, so Ink may draw up to 60 frames a second.
      maxFps: 60,
      onRender: () => renders.rendered(),
    },
  );

  eraseFrame = () => ink.clear();

  // After the first frame is on screen: memory, MCP servers and the model client, which the first
  // turn needs.
  let sync = { settled: () => true };
  void firstFrame.then(() => {
    engine.start();
    sync = startAutoSync(engine, setup);
    // What the prompt needed is compiled now: keep it for the next start even if this one is killed.
    flushCompileCache();
  });
  // Markdown renders answers as they stream: it loads when the first answer's text arrives (its
  // request is out by then), so a prompt typed at once does not wait behind it.
  let answering = false;
  const stopWatchingLive = store.subscribe(() => {
    const text = Boolean(store.getSnapshot().live?.text);
    if (text && !answering) controls.preloadMarkdown();
    answering ||= text;
    if (!answering || text) return;
    stopWatchingLive();
    // The first answer is done: the model client and Markdown are compiled too.
    flushCompileCache();
  });

  const removeHangup = closeOnHangup(engine, () => stdout.write(BRACKETED_PASTE_OFF + SHOW_CURSOR));
  await exited;
  // Ctrl-D while an answer streams: cancelled as Ctrl-C would, and its turn ends first, so the
  // partial answer is kept, marked interrupted, on screen and in the log.
  if (engine.cancel()) await untilIdle(store);
  removeHangup();
  const quitLine = handOffCapture(engine, setup);
  await engine.close();
  // A hint for this run ("press Ctrl-C again to quit") must not stay on screen after it: drawn away
  // before the final frame (the frame changes, so Ink draws it).
  if (store.getSnapshot().notice) {
    const drawn = renders.next();
    store.setNotice(null);
    await drawn;
  }
  store.flush();
  ink.unmount(); // final frame, cursor shown, raw mode off
  stdout.write(BRACKETED_PASTE_OFF);
  setOutputMode('line');
  // After the UI is gone, so it stays on screen below the last frame.
  if (quitLine) stdout.write(`${quitLine}\n`);
  store.dispose();
  process.stdin.pause(); // nothing more to read: let the process end
  // A background sync still running would hold the process until it ends: the next one completes it.
  if (!sync.settled()) process.exit(0);
  return 0;
}
