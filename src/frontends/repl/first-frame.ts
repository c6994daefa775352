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

/**
 * The status line cut to `width` columns before string-width is loaded (loading it costs ~20 ms,
 * and the first frame is all about time). Code points below U+1100 (no wide characters there), the
 * box-drawing separator and the ellipsis count one column, anything else two — an upper bound, so
 * the line never wraps. Ink's first frame redraws it with the exact cut.
 */
export function cutWithin(text: string, width: number): string {
  const cols = (ch: string) => {
    const cp = ch.codePointAt(0)!;
    return cp < 0x1100 || (cp >= 0x2500 && cp <= 0x257f) || cp === 0x2026 ? 1 : 2;
  };
  const chars = Array.from(text);
  if (chars.reduce((n, ch) => n + cols(ch), 0) <= width) return text;
  let used = 1; // the ellipsis
  let out = '';
  for (const ch of chars) {
    if (used + cols(ch) > width) break;
    out += ch;
    used += cols(ch);
  }
  return `${out}…`;
}

export interface FirstFrame {
  /** Erase the frame so Ink draws into the same place. */
  erase(): void;
  /** Undo what drawing it changed (an error before Ink took over). */
  abandon(): void;
}

export function drawFirstFrame(status: StatusInfo, out: NodeJS.WriteStream = process.stdout, input: NodeJS.ReadStream = process.stdin): FirstFrame {
  if (input.isTTY) input.setRawMode(true);
  const width = out.columns || 80;
  out.write(`${BRACKETED_PASTE_ON}${HIDE_CURSOR}${PROMPT}\r\n${dim(statusText(status, width, cutWithin))}\r\n`);
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
