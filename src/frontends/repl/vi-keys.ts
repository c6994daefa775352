/**
 * vi keys for the line editor, as a pure step: (vi state, one keymap action, line) → (vi state,
 * line, actions left for the App). Insert mode passes everything through, so it edits exactly as
 * emacs mode does; normal mode reads typed characters as motions and edits. Every move is by
 * grapheme cluster (clusters.ts), so CJK and emoji move and delete as one character.
 */
import { lineEnd, lineStart, nextBoundary, prevBoundary } from './clusters';
import type { EditorAction } from './keymap';
import type { EditorState } from './line-editor';

type ViMode = 'insert' | 'normal';

export interface ViState {
  mode: ViMode;
  /** Digits typed so far (a count), and the count typed before an operator. */
  count: string;
  op: { key: 'd' | 'c'; count: number } | null;
  /** Lines before each change, newest last (`u`). */
  undo: ReadonlyArray<{ text: string; cursor: number }>;
  /** A new line is in insert mode without an `i`: its first key records the line for `u`. */
  fresh: boolean;
  /** Where a paste in normal mode ends: the terminal may deliver one paste in several pieces. */
  pasteAt?: number;
}

export const viStart = (): ViState => ({ mode: 'insert', count: '', op: null, undo: [], fresh: true });

export interface ViStep {
  vi: ViState;
  line: EditorState;
  /** Actions the App still applies (Enter, Ctrl-C, arrows…). */
  pass: EditorAction[];
}

/**
 * vim's word classes: blank, punctuation, word (letters, digits, underscore), emoji, and each CJK
 * script a class of its own, so `w` stops where 日本語 meets abc, or kanji meet kana.
 */
const CLASSES: Array<[RegExp, number]> = [
  [/^\s/u, 0],
  [/^[\p{Extended_Pictographic}\p{Regional_Indicator}]/u, 3],
  [/^\p{Script=Han}/u, 4],
  [/^\p{Script=Hiragana}/u, 5],
  [/^\p{Script=Katakana}/u, 6],
  [/^\p{Script=Hangul}/u, 7],
  [/^[\p{L}\p{N}_]/u, 1],
];
function kind(cluster: string): number {
  for (const [re, k] of CLASSES) if (re.test(cluster)) return k;
  return 2;
}
const at = (t: string, i: number): string => t.slice(i, nextBoundary(t, i));

/** `w`: the start of the next word (the text's end after the last one). */
function nextWordStart(t: string, i: number): number {
  let p = i;
  if (p < t.length && kind(at(t, p)) !== 0) {
    const k = kind(at(t, p));
    while (p < t.length && kind(at(t, p)) === k) p = nextBoundary(t, p);
  }
  while (p < t.length && kind(at(t, p)) === 0) p = nextBoundary(t, p);
  return p;
}

/** `e`: the last cluster of this or the next word. */
function wordEnd(t: string, i: number): number {
  let p = nextBoundary(t, i);
  while (p < t.length && kind(at(t, p)) === 0) p = nextBoundary(t, p);
  if (p >= t.length) return i;
  const k = kind(at(t, p));
  for (let n = nextBoundary(t, p); n < t.length && kind(at(t, n)) === k; n = nextBoundary(t, n)) p = n;
  return p;
}

/** `b`: the start of this or the previous word. */
function prevWordStart(t: string, i: number): number {
  let p = prevBoundary(t, i);
  while (p > 0 && kind(at(t, p)) === 0) p = prevBoundary(t, p);
  const k = kind(at(t, p));
  for (let q = prevBoundary(t, p); p > 0 && kind(at(t, q)) === k; q = prevBoundary(t, q)) {
    p = q;
    if (q === 0) break;
  }
  return p;
}

/** `cw`'s first word: on a word's last character it changes just that character, as vi does. */
function changeWordEnd(t: string, i: number): number {
  const n = nextBoundary(t, i);
  return n >= t.length || kind(at(t, n)) !== kind(at(t, i)) ? i : wordEnd(t, i);
}

/** Normal mode keeps the cursor on a character: never past the last cluster of the line. */
function clamp(t: string, i: number): number {
  const s = lineStart(t, i);
  const e = lineEnd(t, i);
  return i >= e && e > s ? prevBoundary(t, e) : i;
}

type Motion = (t: string, i: number) => number;
const MOTIONS: Record<string, Motion> = {
  h: (t, i) => (i > lineStart(t, i) ? prevBoundary(t, i) : i),
  l: (t, i) => Math.min(nextBoundary(t, i), lineEnd(t, i)),
  w: nextWordStart,
  b: prevWordStart,
  e: wordEnd,
  '0': (t, i) => lineStart(t, i),
  $: (t, i) => lineEnd(t, i),
};
// Motions whose target character is part of what an operator takes.
const INCLUSIVE = new Set(['e']);

const snapshot = (vi: ViState, line: EditorState): ViState => ({
  ...vi,
  undo: [...vi.undo, { text: line.text, cursor: line.cursor }].slice(-100),
});

function cut(line: EditorState, from: number, to: number): EditorState {
  return { ...line, text: line.text.slice(0, from) + line.text.slice(to), cursor: from, historyIndex: null };
}

/** One typed character in normal mode. */
function normalChar(vi: ViState, line: EditorState, ch: string): { vi: ViState; line: EditorState } {
  const t = line.text;
  if (/[1-9]/.test(ch) || (ch === '0' && vi.count)) return { vi: { ...vi, count: vi.count + ch }, line };
  const n = (vi.count ? Number(vi.count) : 1) * (vi.op?.count ?? 1);
  const idle: ViState = { ...vi, count: '', op: null };
  const motion = MOTIONS[ch];
  if (vi.op) {
    const op = vi.op.key;
    if (ch === op) {
      // dd / cc: the whole line (2dd: this one and the next, in a multi-line prompt).
      const s = lineStart(t, line.cursor);
      let e = lineEnd(t, line.cursor);
      for (let k = 1; k < n && e < t.length; k++) e = lineEnd(t, e + 1);
      // The line's newline goes with it: the one after it, or for the last line the one before.
      const stop = op === 'd' && e < t.length ? e + 1 : e;
      const next = cut(line, op === 'd' && e === t.length && s > 0 ? s - 1 : s, stop);
      return {
        vi: { ...snapshot(idle, line), mode: op === 'c' ? 'insert' : 'normal' },
        line: op === 'd' ? { ...next, cursor: clamp(next.text, next.cursor) } : next,
      };
    }
    if (!motion) return { vi: idle, line };
    // cw changes to the end of the word, as in vi (not over the blanks after it).
    const m = op === 'c' && ch === 'w' && kind(at(t, line.cursor)) !== 0 ? 'e' : ch;
    let to = line.cursor;
    for (let k = 0; k < n; k++) to = k === 0 && m !== ch ? changeWordEnd(t, to) : MOTIONS[m]!(t, to);
    if (INCLUSIVE.has(m)) to = nextBoundary(t, to);
    // dw on the last word of a line stops at the line's end.
    if (ch === 'w') to = Math.min(to, lineEnd(t, line.cursor));
    const [from, stop] = to < line.cursor ? [to, line.cursor] : [line.cursor, to];
    const next = cut(line, from, stop);
    if (op === 'c') return { vi: { ...snapshot(idle, line), mode: 'insert' }, line: next };
    return { vi: snapshot(idle, line), line: { ...next, cursor: clamp(next.text, next.cursor) } };
  }
  if (motion) {
    let p = line.cursor;
    for (let k = 0; k < n; k++) p = motion(t, p);
    return { vi: idle, line: { ...line, cursor: clamp(t, p) } };
  }
  const insertAt = (cursor: number) => ({ vi: { ...snapshot(idle, line), mode: 'insert' as const }, line: { ...line, cursor } });
  switch (ch) {
    case 'd':
    case 'c':
      return { vi: { ...vi, count: '', op: { key: ch, count: vi.count ? Number(vi.count) : 1 } }, line };
    case 'x': {
      let stop = line.cursor;
      for (let k = 0; k < n && stop < lineEnd(t, line.cursor); k++) stop = nextBoundary(t, stop);
      if (stop === line.cursor) return { vi: idle, line };
      const next = cut(line, line.cursor, stop);
      return { vi: snapshot(idle, line), line: { ...next, cursor: clamp(next.text, next.cursor) } };
    }
    case 'i':
      return insertAt(line.cursor);
    case 'a':
      return insertAt(Math.min(nextBoundary(t, line.cursor), lineEnd(t, line.cursor)));
    case 'A':
      return insertAt(lineEnd(t, line.cursor));
    case 'I': {
      let p = lineStart(t, line.cursor);
      while (p < lineEnd(t, p) && kind(at(t, p)) === 0) p = nextBoundary(t, p);
      return insertAt(p);
    }
    case 'u': {
      // 3u: three changes back (as many as there are).
      const back = Math.min(n, vi.undo.length);
      const last = vi.undo[vi.undo.length - back];
      if (!last || back === 0) return { vi: idle, line };
      return {
        vi: { ...idle, undo: vi.undo.slice(0, vi.undo.length - back) },
        line: { ...line, text: last.text, cursor: clamp(last.text, last.cursor), historyIndex: null },
      };
    }
    default:
      return { vi: idle, line };
  }
}

/**
 * A paste in normal mode is text, never commands (as in vim): before the cursor in the first
 * column, after the character under it elsewhere, the next piece of the same paste after the
 * last. Normal mode stays, with the cursor on the last character pasted.
 */
function pasteNormal(vi: ViState, text: string, line: EditorState): ViStep {
  const t = line.text;
  const at = vi.pasteAt ?? (line.cursor === lineStart(t, line.cursor) ? line.cursor : nextBoundary(t, line.cursor));
  const next = t.slice(0, at) + text + t.slice(at);
  const end = at + text.length;
  const undo = vi.pasteAt === undefined ? snapshot(vi, line).undo : vi.undo;
  return {
    vi: { ...vi, count: '', op: null, undo, pasteAt: end },
    line: { ...line, text: next, cursor: clamp(next, end > at ? prevBoundary(next, end) : at), historyIndex: null },
    pass: [],
  };
}

/** One keymap action through vi's modes. */
export function viKey(given: ViState, a: EditorAction, line: EditorState): ViStep {
  // Any other key ends a paste in progress.
  const { pasteAt, ...vi } = given;
  if (a.type === 'insert' && a.paste && vi.mode === 'normal')
    return pasteNormal(pasteAt === undefined ? vi : { ...vi, pasteAt }, a.text, line);
  // Enter and Ctrl-C end the line, and every line starts in insert mode.
  if (a.type === 'submit' || a.type === 'interrupt') return { vi: viStart(), line, pass: [a] };
  if (vi.mode === 'insert') {
    if (a.type !== 'escape') return { vi: vi.fresh ? { ...snapshot(vi, line), fresh: false } : vi, line, pass: [a] };
    // An insert that changed nothing leaves nothing to undo.
    const last = vi.undo.at(-1);
    const undo = last && last.text === line.text ? vi.undo.slice(0, -1) : vi.undo;
    const back = line.cursor > lineStart(line.text, line.cursor) ? prevBoundary(line.text, line.cursor) : line.cursor;
    return { vi: { ...vi, mode: 'normal', count: '', op: null, undo, fresh: false }, line: { ...line, cursor: back }, pass: [] };
  }
  if (a.type === 'escape') {
    // Esc in normal mode drops a pending count or operator; with none it does what Esc does anyway.
    if (vi.count || vi.op) return { vi: { ...vi, count: '', op: null }, line, pass: [] };
    return { vi, line, pass: [a] };
  }
  if (a.type !== 'insert') return { vi, line, pass: [a] };
  let cur = { vi, line };
  const chars = Array.from(a.text);
  for (let k = 0; k < chars.length; k++) {
    // Text typed after i, a, A, I or c in the same chunk is inserted.
    if (cur.vi.mode === 'insert') return { ...cur, pass: [{ type: 'insert', text: chars.slice(k).join('') }] };
    const ch = chars[k]!;
    // k and j: the prompt before or after in history, as in a shell's vi mode.
    if (!cur.vi.op && (ch === 'k' || ch === 'j'))
      return { vi: { ...cur.vi, count: '' }, line: cur.line, pass: [{ type: ch === 'k' ? 'historyPrev' : 'historyNext' }] };
    cur = normalChar(cur.vi, cur.line, ch);
  }
  return { ...cur, pass: [] };
}

/** The prompt's mode sign in vi mode. */
export const viPrompt = (vi: ViState): string => (vi.mode === 'normal' ? '[N] › ' : '[I] › ');
