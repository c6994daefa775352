/**
 * The REPL's first frame, drawn with plain escape codes before Ink and React are even loaded
 * (~150 ms of module loading on this machine). It is exactly what Ink draws first — prompt, cursor
 * block, status line — and Ink replaces it when it mounts. Raw mode is on from here, so keys typed
 * meanwhile are neither echoed nor lost: Ink reads them when it starts.
 */
import type { StatusInfo } from '../../core/status';
import { statusText } from './status-text';

export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const PROMPT = '\x1b[1m\x1b[36m› \x1b[39m\x1b[22m\x1b[7m \x1b[27m';
const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;

export interface FirstFrame {
  /** Erase the frame so Ink draws into the same place. */
  erase(): void;
  /** Undo what drawing it changed (an error before Ink took over). */
  abandon(): void;
}

export function drawFirstFrame(status: StatusInfo, out: NodeJS.WriteStream = process.stdout, input: NodeJS.ReadStream = process.stdin): FirstFrame {
  if (input.isTTY) input.setRawMode(true);
  const width = out.columns || 80;
  out.write(`${BRACKETED_PASTE_ON}${HIDE_CURSOR}${PROMPT}\r\n${dim(statusText(status, width))}\r\n`);
  let erased = false;
  return {
    erase() {
      if (erased) return;
      erased = true;
      out.write('\x1b[2A\r\x1b[J'); // up over the two lines, clear to the end of the screen
    },
    abandon() {
      this.erase();
      out.write(`${BRACKETED_PASTE_OFF}${SHOW_CURSOR}`);
      if (input.isTTY) input.setRawMode(false);
    },
  };
}
