/**
 * `aish` on a terminal: the Ink REPL. The engine is created first (config and paths are already
 * loaded), the prompt is drawn, and only then does background work start (memory, Markdown).
 */
import { render } from 'ink';
import type { Setup } from '../../config/setup';
import { Engine } from '../../core/engine';
import type { EngineOptions } from '../../core/options';
import { routerFor } from '../../input/router';
import { InputHistory } from '../../sessions/input-history';
import { handOffCapture } from '../capture-handoff';
import { closeOnHangup } from '../signals';
import { App } from './App';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, type FirstFrame } from './first-frame';
import { keepSettledFrame, watchFirstFrames } from './frame-watch';
import { createInkHost } from './ink-host';
import { UiStore } from './store';

/** How long Ink's first frame may wait for start-up memory, so it can match the frame already drawn. */
const MEMORY_WAIT_MS = 40;

export async function runRepl(setup: Setup, opts: EngineOptions, firstFrame?: FirstFrame): Promise<number> {
  const stdout = process.stdout;
  const color = !process.env.NO_COLOR && stdout.hasColors?.() !== false;
  const ignoreSigint = () => {};
  // The store needs a status before the engine exists; the engine's own replaces it at once.
  const store = new UiStore({
    preset: '',
    model: '',
    cwd: '',
    memoryInjected: null,
    inbox: 0,
    tokens: 0,
    budget: 0,
    tokensExact: false,
    busy: false,
    norris: null,
    usage: null,
  });

  const controls = createInkHost(store, {
    color,
    width: () => stdout.columns || 80,
    rows: () => stdout.rows || 24,
    onHandOff: async (active) => {
      if (active) {
        stdout.write(BRACKETED_PASTE_OFF);
        store.setHandedOff(true); // stops useInput: raw mode off
        await new Promise((r) => setTimeout(r, 50)); // let Ink draw the empty frame
        process.stdin.pause(); // otherwise Node keeps reading the child's keystrokes
        process.on('SIGINT', ignoreSigint);
      } else {
        process.removeListener('SIGINT', ignoreSigint);
        stdout.write('\n');
        // Raw mode before the UI is back (as at start): a key typed right away must not be cooked
        // by the terminal (a cooked Ctrl-D would end stdin).
        if (process.stdin.isTTY) process.stdin.setRawMode(true);
        store.setHandedOff(false);
        stdout.write(BRACKETED_PASTE_ON);
      }
    },
  });

  const engine = Engine.create(setup, controls.host, opts);
  const input = routerFor(engine.parts);
  store.setStatus(engine.status());
  const history = new InputHistory(setup.paths.inputHistory);

  let resolveExit!: () => void;
  const exited = new Promise<void>((r) => (resolveExit = r));

  // The launcher drew the last start's settled frame: it stands when Ink's first frame is the same,
  // which needs memory's count in that first frame. With the start-up cache that takes a few ms,
  // while keys typed meanwhile are still echoed on the early frame.
  let started = false;
  if (firstFrame?.predicted) {
    engine.start();
    started = true;
    await Promise.race([engine.parts.memory.ready(), new Promise((r) => setTimeout(r, MEMORY_WAIT_MS))]);
    store.setStatus(engine.status());
  }
  // Keys typed on the pre-drawn prompt: Ink starts with them (first-frame.ts).
  const typed = firstFrame?.takeKeys();
  const predicted = typed && typed.lines.length === 0 && typed.draft === '' ? firstFrame?.predicted : undefined;
  let frames: { flush(): void } | undefined;
  if (firstFrame) {
    frames = watchFirstFrames(
      firstFrame,
      predicted,
      keepSettledFrame(firstFrame, setup, () => engine.status()),
    );
  } else {
    stdout.write(BRACKETED_PASTE_ON);
    // Raw mode before the first frame: keys typed as soon as the prompt shows are neither echoed
    // nor lost before Ink starts listening; the kernel keeps them until Ink reads.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
  }
  // Ctrl-Z erases the live frame through the instance, which exists only once render() returns.
  let eraseFrame = () => {};
  const ink = render(
    <App
      store={store}
      input={input}
      controls={controls}
      history={history}
      typedAhead={typed}
      onExit={() => resolveExit()}
      eraseFrame={() => eraseFrame()}
    />,
    {
      exitOnCtrlC: false,
      patchConsole: false,
      // Streaming is already batched to ~30 updates a second by the store; a keystroke must not wait
      // behind that throttle, so Ink may draw up to 60 frames a second.
      maxFps: 60,
    },
  );

  eraseFrame = () => ink.clear();

  // After the first frame: work that must not delay the prompt.
  setImmediate(() => {
    if (!started) engine.start();
    setTimeout(() => controls.preloadMarkdown(), 100);
  });

  const removeHangup = closeOnHangup(engine);
  await exited;
  frames?.flush();
  removeHangup();
  const quitLine = handOffCapture(engine, setup);
  await engine.close();
  store.flush();
  ink.unmount(); // final frame, cursor shown, raw mode off
  stdout.write(BRACKETED_PASTE_OFF);
  // After the UI is gone, so it stays on screen below the last frame.
  if (quitLine) stdout.write(`${quitLine}\n`);
  store.dispose();
  process.stdin.pause(); // nothing more to read: let the process end
  return 0;
}
