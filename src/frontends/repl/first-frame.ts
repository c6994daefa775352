/**
 * The REPL's first frame, drawn with plain escape codes before Ink and React are even loaded
 * (~150 ms of module loading on this machine). It is exactly what Ink draws first — prompt, cursor
 * block, status line — and Ink replaces it when it mounts. Raw mode is on from here, and keys typed
 * meanwhile are echoed on the prompt line at once (Ink mounts ~100 ms later). Ink takes them over
 * when it mounts: lines ended with Enter are submitted once, in order, the unfinished one becomes
 * its editor text, and anything from the first other key on (Ctrl keys, escape sequences, a paste)
 * is put back on stdin unread, so Ink handles every key exactly once.
 */
import { StringDecoder } from 'node:string_decoder';
import type { StatusInfo } from '../../core/status';
import { statusText } from './status-text';

export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';

export const HIDE_CURSOR = '\x1b[?25l';
export const SHOW_CURSOR = '\x1b[?25h';
const PROMPT_HEAD = '\x1b[1m\x1b[36m› \x1b[39m\x1b[22m';
const CURSOR = '\x1b[7m \x1b[27m';
/** The prompt line of an empty editor, as App draws it: the prompt mark and the cursor block. */
export const EMPTY_PROMPT_LINE = `${PROMPT_HEAD}${CURSOR}`;
const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;

/**
 * The status line cut to `width` columns before string-width is loaded (loading it costs ~20 ms,
 * and the first frame is all about time). Code points below U+1100 (no wide characters there), the
 * box-drawing separator and the ellipsis count one column, anything else two — an upper bound, so
 * the line never wraps. Ink's first frame redraws it with the exact cut.
 */
const cols = (ch: string) => {
  const cp = ch.codePointAt(0)!;
  return cp < 0x1100 || (cp >= 0x2500 && cp <= 0x257f) || cp === 0x2026 ? 1 : 2;
};

export function cutWithin(text: string, width: number): string {
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

/** What was typed before Ink mounted, for the App to take over. */
export interface TypedAhead {
  /** Lines ended with Enter, in order: the App submits each once. */
  lines: string[];
  /** The unfinished line: the App's initial editor text. */
  draft: string;
}

/**
 * Keys typed before Ink mounts, as far as they are plain typing: printable characters, Backspace
 * and Enter. The first other key (a control key, an escape sequence, a paste) ends `plain`; it
 * and everything after it are kept as `rest`, for Ink to read as if they had just arrived.
 */
export class EarlyKeys implements TypedAhead {
  lines: string[] = [];
  draft = '';
  rest = '';

  get plain(): boolean {
    return this.rest === '';
  }

  feed(text: string): void {
    for (const ch of text) {
      if (!this.plain) this.rest += ch;
      else if (ch === '\x7f' || ch === '\b') this.draft = Array.from(this.draft).slice(0, -1).join('');
      // \n too: an Enter typed before raw mode was on arrives as \n (the terminal's ICRNL).
      else if (ch === '\r' || ch === '\n') {
        this.lines.push(this.draft);
        this.draft = '';
      } else if (ch >= ' ' && !(ch >= '\x7f' && ch < '\xa0')) this.draft += ch;
      else this.rest = ch;
    }
  }

  /** The draft fits on the prompt line (with the cursor block), so echoing it cannot wrap. */
  fits(width: number): boolean {
    return 3 + Array.from(this.draft).reduce((n, ch) => n + cols(ch), 0) <= width;
  }
}

export interface FirstFrame {
  /**
   * The frame on screen as Ink would write it, when it may already be Ink's first frame: the last
   * start's settled frame the launcher drew (frame-cache.cjs), or this first frame when its status
   * line is already final (memory known). Ink's first frame is not written when it is the same
   * (frame-handover.ts).
   */
  predicted?: string | undefined;
  /** `predicted` came from the frame cache (so keeping it again would change nothing). */
  fromCache?: boolean | undefined;
  /** Where this start's settled frame is kept for the next start (frame-cache.ts). */
  cache?: FrameCacheSlot | undefined;
  /** What erases the frame (up to its first line, clear below), so Ink draws into the same place. */
  eraseSequence: string;
  /** Write eraseSequence, once. */
  erase(): void;
  /**
   * Stop reading keys and hand them to Ink: the lines and draft typed so far; keys that are not
   * plain typing are put back on stdin for Ink to read.
   */
  takeKeys(): TypedAhead;
  /** Undo what drawing it changed (an error before Ink took over). */
  abandon(): void;
}

/** The cache file and this start's key in it, as the launcher computed them. */
export interface FrameCacheSlot {
  path: string;
  key: string;
}

/** The prompt line (or cached frame) bin/early-prompt.cjs draws before the bundle loads, with what it read. */
interface EarlyPrompt {
  frame?: string | undefined;
  cache?: FrameCacheSlot | undefined;
  take(): string;
  abandon(): void;
}

/** Taken at most once: the first frame continues it, or an error removes it. */
function earlyPrompt(): EarlyPrompt | undefined {
  const g = globalThis as { __aishEarlyPrompt?: EarlyPrompt };
  const early = g.__aishEarlyPrompt;
  delete g.__aishEarlyPrompt;
  return early;
}

/** An error before the first frame: take the launcher's prompt line off the screen. */
export function abandonEarlyPrompt(): void {
  earlyPrompt()?.abandon();
}

export function drawFirstFrame(
  status: StatusInfo,
  out: NodeJS.WriteStream = process.stdout,
  input: NodeJS.ReadStream = process.stdin,
): FirstFrame {
  if (input.isTTY) input.setRawMode(true);
  const width = out.columns || 80;
  const early = earlyPrompt();
  // The launcher drew the prompt line already (the cursor is on the line below): add the status
  // line — unless it drew the whole cached frame.
  const typed = early?.take() ?? '';
  const cached = early?.frame;
  const statusLine = cached ? '' : dim(statusText(status, width, cutWithin));
  if (!cached) out.write(`${BRACKETED_PASTE_ON}${HIDE_CURSOR}${early ? '' : `${EMPTY_PROMPT_LINE}\r\n`}${statusLine}\r\n`);
  // With memory's count known already (cli/repl-front.ts: memory off, no file yet, or a small one
  // read first), this frame is final: Ink's first frame may be the same (frame-handover.ts).
  const predicted = cached ?? (status.memoryInjected !== null ? `${EMPTY_PROMPT_LINE}\n${statusLine}\n` : undefined);
  const lines = cached ? cached.split('\n').length - 1 : 2; // the cursor is this many lines below the prompt line
  let erased = false;
  // Reading (not just buffering in the kernel) is what lets a key show before Ink mounts.
  const keys = new EarlyKeys();
  const decoder = new StringDecoder('utf8');
  let reading = input.isTTY === true;
  // Redraw the prompt line above the status line, then back to where Ink expects the cursor.
  const echo = () => {
    if (keys.plain && keys.fits(width)) out.write(`\x1b[${lines}A\r${PROMPT_HEAD}${keys.draft}${CURSOR}\x1b[K\r\x1b[${lines}B`);
  };
  const onReadable = () => {
    let chunk: Buffer | string | null;
    while ((chunk = input.read() as Buffer | string | null) !== null) {
      keys.feed(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    }
    echo();
  };
  if (typed) {
    keys.feed(typed);
    echo();
  }
  // 'readable', not 'data': Ink reads the same way, and pause() would stop the read Ink relies on
  // (Node stops a paused stdin's read one tick later, after Ink has already subscribed).
  if (reading) input.on('readable', onReadable);
  const stopReading = () => {
    if (!reading) return;
    reading = false;
    input.removeListener('readable', onReadable);
  };
  return {
    predicted,
    fromCache: cached !== undefined,
    cache: early?.cache,
    eraseSequence: `\x1b[${lines}A\r\x1b[J`,
    takeKeys() {
      if (!reading) return { lines: [], draft: '' };
      stopReading();
      // Ink reads these first, as if they had just arrived.
      if (!keys.plain) input.unshift(Buffer.from(keys.rest));
      return { lines: keys.lines, draft: keys.draft };
    },
    erase() {
      if (erased) return;
      erased = true;
      out.write(this.eraseSequence);
    },
    abandon() {
      stopReading();
      input.pause(); // no Ink to read: let the process end
      this.erase();
      out.write(`${BRACKETED_PASTE_OFF}${SHOW_CURSOR}`);
      if (input.isTTY) input.setRawMode(false);
    },
  };
}
