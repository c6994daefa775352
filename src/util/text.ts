/**
 * Text that reaches a terminal or a prompt block from somewhere untrusted (a model, a hand-edited
 * file, a session log). One definition of "control character" for all of them: C0 and C1 controls
 * and DEL, which can start escape sequences that repaint the terminal or set its title.
 */

/** Every C0/C1 control and DEL. */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Controls except tab and newline: what may stay in multi-line text. */
export const CONTROL_CHARS_EXCEPT_TAB_NL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** C0 controls and DEL except tab and newline; C1 controls (U+0080–U+009F) are kept. */
export const C0_CONTROLS_EXCEPT_TAB_NL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
/** CSI escape sequences (`ESC [ … final`), e.g. keys and colours. */
export const CSI_SEQUENCE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

// Not global, so `test()` keeps no state between calls.
const ANY_CONTROL = new RegExp(CONTROL_CHARS.source);
/** Whether `s` holds any character of CONTROL_CHARS. */
export function hasControlChars(s: string): boolean {
  return ANY_CONTROL.test(s);
}

// Line breaks in every spelling a terminal, editor or model might honour.
const BREAKS = /[\r\n\u000b\u000c\u0085\u2028\u2029]+/g;
const HEADER_LIKE = /\[\s*(background|norris[^\]\n]*|system[^\]\n]*|memory[^\]\n]*)\s*\]/gi;

/** Multi-line text for display: CRLF/CR normalised, other controls dropped; `\n` and `\t` stay. */
export function stripControls(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(CONTROL_CHARS_EXCEPT_TAB_NL, '');
}

/** One line: whitespace collapsed, control characters dropped, at most `max` code points (… when cut). */
export function oneLine(s: string, max = Infinity): string {
  const flat = s.replace(/\s+/g, ' ').replace(CONTROL_CHARS, '').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * Text going into a bracketed block of the system prompt: one line, no controls, and nothing that
 * reads like one of the prompt's own block headers (`[background]`, `[NORRIS …]`, …).
 */
export function sanitizeForBlock(text: string): string {
  return text
    .replace(BREAKS, ' ')
    .replace(/\t/g, ' ')
    .replace(CONTROL_CHARS, '')
    .replace(HEADER_LIKE, (_m, name: string) => `(${name.trim()})`)
    .replace(/ {2,}/g, ' ')
    .trim();
}
