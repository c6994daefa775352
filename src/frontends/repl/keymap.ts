/**
 * Ink key events to line-editor actions. Pure, so paste and control-key handling are unit-tested.
 *
 * Pastes: Ink 6.8 has no bracketed-paste support, so aish turns the terminal's bracketed paste on
 * and sees the `[200~` / `[201~` markers as their own events; everything between is text, newlines
 * included. Terminals without it deliver a paste as one chunk with `\r` inside (key.return false):
 * `\r` inside a chunk is a newline, a `\r` ending a chunk is Enter.
 */
import type { Key } from 'ink';
import { C0_CONTROLS_EXCEPT_TAB_NL, CSI_SEQUENCE } from '../../util/text';

export type EditorAction =
  /** `paste`: the terminal pasted it (bracketed, or a chunk with line breaks): text in every vi mode. */
  | { type: 'insert'; text: string; paste?: boolean }
  | { type: 'submit' }
  | { type: 'backspace' }
  | { type: 'deleteForward' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'killToStart' }
  | { type: 'killToEnd' }
  | { type: 'killWord' }
  | { type: 'wordLeft' }
  | { type: 'wordRight' }
  | { type: 'killWordForward' }
  | { type: 'killWordBack' }
  | { type: 'clearScreen' }
  | { type: 'suspend' }
  | { type: 'historyPrev' }
  | { type: 'historyNext' }
  | { type: 'complete' }
  | { type: 'interrupt' }
  | { type: 'eof' }
  | { type: 'reverseSearch' }
  | { type: 'abort' }
  | { type: 'escape' };

export interface PasteState {
  active: boolean;
  /** What the paste has delivered so far, not yet given to the editor. */
  held?: string;
}

/**
 * A bracketed paste reaches the editor whole at its end marker (or every PASTE_FLUSH characters),
 * not once per read: a terminal delivers 5 MB in ~1,200 reads, and laying the whole text out again
 * after each was quadratic (minutes, and memory past a gigabyte).
 */
const PASTE_FLUSH = 256 * 1024;

function held(paste: PasteState, text: string, end: boolean): EditorAction[] {
  paste.held = (paste.held ?? '') + text;
  if (!end && paste.held.length < PASTE_FLUSH) return [];
  const all = paste.held;
  paste.held = '';
  return all ? [{ type: 'insert', text: all, paste: true }] : [];
}

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** Strip what is not text: other escape sequences and C0 control characters (tab and newline stay). */
function clean(text: string): string {
  return text.replace(CSI_SEQUENCE, '').replace(C0_CONTROLS_EXCEPT_TAB_NL, '');
}

/** Pasted text: line breaks become \n, tabs stay, other control characters go. */
function pastedText(raw: string): string {
  return clean(raw.replace(/\r\n?/g, '\n'));
}

// The Delete key (plain, with modifiers, rxvt forms). Ink reports it as `delete` exactly like the
// \x7f a terminal's Backspace sends, so only the raw sequence tells them apart.
const FORWARD_DELETE = /^\x1b\[3[;~$^]/;

/** Alt-letter keys (readline's): the letter arrives with key.meta set, ESC stripped. */
const META_KEYS: Record<string, EditorAction> = {
  b: { type: 'wordLeft' },
  f: { type: 'wordRight' },
  d: { type: 'killWordForward' },
};

/** Ctrl-letter keys (readline's). */
const CTRL_KEYS = new Map<string, EditorAction>([
  ['c', { type: 'interrupt' }],
  ['d', { type: 'eof' }],
  ['a', { type: 'home' }],
  ['e', { type: 'end' }],
  ['u', { type: 'killToStart' }],
  ['k', { type: 'killToEnd' }],
  ['w', { type: 'killWord' }],
  ['b', { type: 'left' }],
  ['f', { type: 'right' }],
  ['p', { type: 'historyPrev' }],
  ['n', { type: 'historyNext' }],
  ['h', { type: 'backspace' }],
  ['l', { type: 'clearScreen' }],
  ['z', { type: 'suspend' }],
  ['r', { type: 'reverseSearch' }],
  ['g', { type: 'abort' }],
]);

/**
 * `raw` is the sequence the terminal sent for this event, when known: Ink's Key alone cannot tell
 * the Delete key from Backspace.
 */
export function keyToActions(input: string, key: Key, paste: PasteState, raw = ''): EditorAction[] {
  // Bracketed paste markers (ESC stripped by Ink).
  if (input === PASTE_START || input.startsWith(PASTE_START)) {
    paste.active = true;
    const rest = input.slice(PASTE_START.length);
    return rest ? keyToActions(rest, key, paste) : [];
  }
  if (paste.active) {
    const endAt = input.indexOf(PASTE_END);
    if (endAt >= 0) {
      paste.active = false;
      return held(paste, pastedText(input.slice(0, endAt)), true);
    }
    return held(paste, key.return ? '\n' : pastedText(input), false);
  }

  if (key.ctrl) {
    // Ctrl-←/→ (\x1b[1;5D, rxvt \x1bOd): Ink names the arrow, with no input.
    if (key.leftArrow) return [{ type: 'wordLeft' }];
    if (key.rightArrow) return [{ type: 'wordRight' }];
    const bound = CTRL_KEYS.get(input);
    return bound ? [bound] : [];
  }
  if (key.return) return key.meta ? [{ type: 'insert', text: '\n' }] : [{ type: 'submit' }];
  if (FORWARD_DELETE.test(raw)) return [{ type: 'deleteForward' }];
  if (key.meta && !key.escape) {
    if (key.leftArrow) return [{ type: 'wordLeft' }];
    if (key.rightArrow) return [{ type: 'wordRight' }];
    if (key.backspace || key.delete) return [{ type: 'killWordBack' }];
    const bound = META_KEYS[input];
    if (bound) return [bound];
    // Another Alt-letter is not text: typing it must not insert the letter.
    if (input.length === 1) return [];
  }
  if (key.tab) return [{ type: 'complete' }];
  // Terminals send \x7f for Backspace, which Ink reports as `delete` (the Delete key was taken above).
  if (key.backspace || key.delete) return [{ type: 'backspace' }];
  if (key.leftArrow) return [{ type: 'left' }];
  if (key.rightArrow) return [{ type: 'right' }];
  if (key.upArrow) return [{ type: 'historyPrev' }];
  if (key.downArrow) return [{ type: 'historyNext' }];
  if (key.home) return [{ type: 'home' }];
  if (key.end) return [{ type: 'end' }];
  // A lone Esc (Ink flushes a pending ESC with nothing after it as `escape`, no input).
  if (key.escape && !input) return [{ type: 'escape' }];
  if (key.escape || !input) return [];

  if (input.length > 1) return chunkActions(input);
  const text = clean(input);
  return text ? [{ type: 'insert', text }] : [];
}

/** In a chunk, the control characters of these Ctrl keys (Ctrl-B, F, P, N and G are not taken there), Tab and DEL. */
const CHUNK_KEYS = new Map<string, EditorAction>([
  ['\t', { type: 'complete' }],
  ['\x7f', { type: 'backspace' }],
  ...[...'hcdaeukwlzr'].map((l) => [String.fromCharCode(l.charCodeAt(0) - 96), CTRL_KEYS.get(l)!] as const),
]);

/**
 * Several characters in one event: fast typing, or a paste on a terminal without bracketed paste.
 * A chunk with a line break before its end is a paste: its line breaks are newlines and tabs are
 * text. Otherwise control characters are the keys they stand for. A final \r is Enter either way.
 */
export function chunkActions(input: string): EditorAction[] {
  // Enter pressed several times before we read: that is Enter, not a paste of empty lines.
  if (/^[\r\n]+$/.test(input)) return [{ type: 'submit' }];
  const body = input.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r\n/g, '\n');
  const submit = /[\r\n]$/.test(body);
  const text = submit ? body.slice(0, -1) : body;
  const isPaste = /[\r\n]/.test(text);
  const actions: EditorAction[] = [];
  let buf = '';
  const flush = () => {
    if (buf) actions.push(isPaste ? { type: 'insert', text: buf, paste: true } : { type: 'insert', text: buf });
    buf = '';
  };
  for (const ch of text) {
    if (ch === '\r' || ch === '\n') buf += '\n';
    else if (isPaste && ch === '\t') buf += ch;
    else if (!isPaste && CHUNK_KEYS.has(ch)) {
      flush();
      actions.push(CHUNK_KEYS.get(ch)!);
    } else if (ch >= ' ' && ch !== '\x7f') buf += ch;
  }
  flush();
  if (submit) actions.push({ type: 'submit' });
  return actions;
}
