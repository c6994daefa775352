/**
 * What may reach the terminal, decided on the bytes just before they are written (see
 * docs/hostile-text.md). Only aish's own styling and cursor work pass as sequences: SGR colours,
 * and the cursor/erase/mode sequences Ink, readline and the REPL emit. Everything else that could
 * drive the terminal or hide text is shown instead: C0 controls in caret form (`^[`, `^G`), C1
 * controls, bidi controls and invisible format characters as `<U+202E>`. An escape sequence that is
 * not allowed loses its ESC (shown as `^[`), so the rest of it is plain, harmless text.
 */

/**
 * `line`: command-line output, only colours pass. `edit`: while a readline prompt edits a line in a
 * terminal (its cursor moves and erases pass too). `screen`: the Ink REPL's frames.
 */
export type OutputMode = 'line' | 'edit' | 'screen';

// CSI as ECMA-48 spells it: parameters, intermediates, one final byte.
const CSI = /\u001b\[([0-?]{0,60})([ -/]{0,4})([@-~])/y;

/** The CSI sequence starting at `at`, if one does. */
function csiAt(text: string, at: number): RegExpExecArray | null {
  CSI.lastIndex = at;
  return CSI.exec(text);
}
// Colours and text attributes.
const SGR = /^[\d:;]*$/;
// Readline's and our spinner's line editing: cursor left/right/up/down, to a column, erase in line,
// erase below.
const LINE_EDIT: Record<string, RegExp> = { A: /^\d*$/, B: /^\d*$/, C: /^\d*$/, D: /^\d*$/, G: /^\d*$/, K: /^[012]?$/, J: /^0?$/ };
// What Ink and the REPL add: next/previous line, clear screen (Ink's clearTerminal), home, the
// cursor's visibility, bracketed paste, synchronized output, the kitty keyboard protocol.
const SCREEN: Record<string, RegExp> = {
  E: /^\d*$/,
  F: /^\d*$/,
  J: /^[0-3]?$/,
  H: /^$/,
  h: /^\?(25|2004|2026)$/,
  l: /^\?(25|2004|2026)$/,
  u: /^([<>]\d*|\?)$/,
};

// Anything that needs a look: controls, C1, bidi controls, zero-width and other invisible formats,
// line/paragraph separators, BOM, interlinear annotation, tag characters.
const NEEDS_LOOK =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

// SGR without "conceal" (8): colours may pass, text made invisible may not. Extended colours
// (38/48/58;5;N and ;2;R;G;B) are stepped over, so a colour index of 8 is still a colour.
function allowedSgr(params: string): boolean {
  if (!SGR.test(params)) return false;
  const p = params.split(';');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '38' || p[i] === '48' || p[i] === '58') i += p[i + 1] === '5' ? 2 : p[i + 1] === '2' ? 4 : 0;
    else if (p[i] === '8' || p[i] === '08') return false;
  }
  return true;
}

/** An allowed SGR's parameters without the colours; '' when nothing else was in it. */
function withoutColour(params: string): string {
  const p = params.split(';');
  const keep: string[] = [];
  for (let i = 0; i < p.length; i++) {
    const n = p[i]!;
    if (n === '38' || n === '48' || n === '58') i += p[i + 1] === '5' ? 2 : p[i + 1] === '2' ? 4 : 0;
    else if (!/^(3\d|4\d|9[0-7]|10[0-7]|59)$/.test(n) && !/^[345]8:/.test(n)) keep.push(n);
  }
  return keep.join(';');
}

// Showing the cursor only puts the terminal back as it was, so it passes in every mode: the
// cursor restore that runs as the process exits (Ink's cli-cursor, after the REPL is gone and
// the mode is `line` again) must reach the terminal, not be printed as `^[[?25h` before the prompt.
const SHOW_CURSOR = '?25';

function allowedCsi(params: string, inter: string, final: string, mode: OutputMode): boolean {
  if (inter !== '') return false;
  if (final === 'm') return allowedSgr(params);
  if (final === 'h' && params === SHOW_CURSOR) return true;
  if (mode === 'line') return false;
  if (LINE_EDIT[final]?.test(params)) return true;
  return mode === 'screen' && SCREEN[final]?.test(params) === true;
}

/** How an unsafe character is shown: caret form for C0 and DEL, `<U+XXXX>` for the rest. */
function visible(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return `^${String.fromCharCode(cp + 0x40)}`;
  if (cp === 0x7f) return '^?';
  return `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
}

// The code point that ends at `end`, and where it starts.
function codePointBefore(text: string, end: number): [number, number] {
  const lo = text.charCodeAt(end - 1);
  const hi = end >= 2 ? text.charCodeAt(end - 2) : 0;
  if (lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff) return [text.codePointAt(end - 2)!, end - 2];
  return [lo, end - 1];
}

// A zero-width joiner inside an emoji sequence (a family, a profession) is part of the picture, not
// a hiding place: kept between two pictographs (a variation selector or skin tone may come between).
function emojiJoiner(text: string, at: number): boolean {
  let end = at;
  while (end > 0) {
    const [cp, start] = codePointBefore(text, end);
    if (cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff)) {
      end = start;
      continue;
    }
    const next = text.codePointAt(at + 1) ?? 0x20;
    return PICTOGRAPH.test(String.fromCodePoint(cp)) && PICTOGRAPH.test(String.fromCodePoint(next));
  }
  return false;
}

/** Whether `text` holds nothing the filter would change (the common case, checked fast). */
export function needsFilter(text: string): boolean {
  return NEEDS_LOOK.test(text);
}

/** `text` as it may reach the terminal in `mode`; `noColour`: SGR colours are dropped, other styles stay. */
export function filterOutput(text: string, mode: OutputMode = 'line', noColour = false): string {
  if (!NEEDS_LOOK.test(text)) return text;
  const look = new RegExp(NEEDS_LOOK.source, 'gu');
  let out = '';
  let i = 0;
  // From one character that needs a look to the next; the text between is copied whole.
  for (let m = look.exec(text); m; m = look.exec(text)) {
    if (m.index < i) continue; // inside a sequence already copied
    out += text.slice(i, m.index);
    i = m.index;
    const ch = m[0];
    if (ch === '\u001b') {
      const seq = csiAt(text, i);
      if (seq && allowedCsi(seq[1]!, seq[2]!, seq[3]!, mode)) {
        if (noColour && seq[3] === 'm' && seq[1] !== '') {
          const rest = withoutColour(seq[1]!);
          if (rest !== '') out += `\u001b[${rest}m`;
        } else out += seq[0];
        i += seq[0].length;
        continue;
      }
    } else if (ch === '\r') {
      // A carriage return that ends a line, or starts a redraw of it while a line is edited,
      // stays; a lone one would let text overwrite what is already on the line.
      const next = text[i + 1];
      if (next === '\n' || (mode !== 'line' && next === '\u001b' && csiAt(text, i + 1) !== null)) {
        out += ch;
        i += 1;
        continue;
      }
    } else if (ch === '\u200d' && emojiJoiner(text, i)) {
      out += ch;
      i += 1;
      continue;
    }
    out += visible(ch);
    i += ch.length;
  }
  return out + text.slice(i);
}

const NEEDS_LOOK_ALL = new RegExp(NEEDS_LOOK.source, 'gu');

/**
 * JSON text (from JSON.stringify) with every character the filter would show spelled as a `\uXXXX`
 * escape instead: still the same JSON value, so `memory export | memory import` round-trips, and
 * nothing in it drives the terminal. Such characters only occur inside JSON strings.
 */
export function escapeForJson(json: string): string {
  return json.replace(NEEDS_LOOK_ALL, (ch) =>
    Array.from({ length: ch.length }, (_, k) => `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`).join(''),
  );
}
