/**
 * Ctrl-L and Ctrl-Z for the Ink REPL. Ink owns the screen below the scrollback (its live frame) and
 * remembers how many lines it last drew; both keys work through Ink so that memory stays true.
 */
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, HIDE_CURSOR, SHOW_CURSOR } from './terminal-codes';

export interface Screen {
  /** Ink's useStdout().write: erases the live frame, writes `data`, draws the frame again after it. */
  writeAbove(data: string): void;
  /** Erase the live frame (Ink's instance.clear()); Ink still counts it as drawn. */
  eraseFrame(): void;
  /** How many rows the live frame takes now. */
  frameRows(): number;
}

export interface Terminal {
  stdin: Pick<NodeJS.ReadStream, 'isTTY' | 'setRawMode'>;
  stdout: Pick<NodeJS.WriteStream, 'write'>;
  /** Stop this process as the shell's Ctrl-Z would (SIGTSTP to ourselves). */
  stop(): void;
  onContinue(fn: () => void): () => void;
}

const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H'; // screen, scrollback, cursor home

/** Ctrl-L: a clean screen with the prompt and status line at the top. */
export function clearScreen(screen: Screen): void {
  screen.writeAbove(CLEAR_SCREEN);
}

const processTerminal = (): Terminal => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stop: () => process.kill(process.pid, 'SIGTSTP'),
  onContinue(fn) {
    process.once('SIGCONT', fn);
    return () => process.removeListener('SIGCONT', fn);
  },
});

/**
 * Ctrl-Z: hand the terminal back to the shell like any stopped job (frame erased, cooked mode,
 * cursor shown), and take it again on SIGCONT (`fg`).
 */
export function suspend(screen: Screen, term: Terminal = processTerminal()): void {
  screen.eraseFrame();
  term.stdout.write(BRACKETED_PASTE_OFF + SHOW_CURSOR);
  if (term.stdin.isTTY) term.stdin.setRawMode(false);
  let resumed = false;
  const resume = () => {
    if (resumed) return;
    resumed = true;
    stopListening();
    if (term.stdin.isTTY) term.stdin.setRawMode(true);
    // The shell wrote where the frame was. Before drawing, Ink erases as many lines above the
    // cursor as its frame had: give it that many blank lines, not the shell's, to erase.
    term.stdout.write(BRACKETED_PASTE_ON + HIDE_CURSOR + '\n'.repeat(screen.frameRows()));
    screen.writeAbove('');
  };
  const stopListening = term.onContinue(resume);
  term.stop();
  // A signal a thread sends itself is taken on the way back from kill(): the process stops there
  // and gets here only once continued. Without a job-control shell (an orphaned process group, e.g.
  // aish as a tmux pane's command) the kernel drops SIGTSTP and we get here at once: either way the
  // UI comes back now, so keys are never left cooked waiting for a SIGCONT that will not come.
  setImmediate(resume);
}
