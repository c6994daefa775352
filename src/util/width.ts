/**
 * Display columns, the way Ink measures them (string-width: East Asian wide characters and emoji
 * take two columns, combining marks none), and cutting text by columns without splitting a
 * grapheme cluster (an emoji with its modifiers, a letter with its accents).
 *
 * Importing this module costs ~20 ms (string-width builds a segmenter and its emoji tables), so
 * nothing on the way to the first prompt imports it: the front ends load it with the UI.
 */
import stringWidth from 'string-width';

export { stringWidth };

// Made on first use: the first Intl.Segmenter of a process loads ICU data (~15 ms).
let segmenter: Intl.Segmenter | undefined;
// Printable ASCII: one column per UTF-16 unit, so it can be cut with slice().
const ASCII = /^[\x20-\x7e]*$/;
// Intl.Segmenter gets slower than linear on long strings (64K characters: ~1 s), so long text is
// segmented in slices of this many UTF-16 units.
const SLICE = 512;

/**
 * Characters that can share a grapheme cluster with a neighbour: marks, joiners, controls and
 * format characters, regional indicators, emoji modifiers, Hangul jamo, Thai/Lao AM, Malayalam
 * dot reph, and (to be safe as Unicode grows) every supplementary-plane character outside the
 * emoji and CJK planes. Text without them is one cluster per code point: no segmenter needed.
 */
const JOINING =
  /[\p{M}\p{Grapheme_Extend}\p{Cc}\p{Cf}\p{Cs}\p{Regional_Indicator}\p{Emoji_Modifier}\u0d4e\u0e33\u0eb3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u{10000}-\u{1efff}\u{40000}-\u{10ffff}]/u;

/** The grapheme clusters of `s`, in order (a string iterates by code point: one cluster each). */
function clusters(s: string): Iterable<string> {
  return JOINING.test(s) ? segmented(s) : s;
}

/** The grapheme clusters of `s`, in order. */
export function graphemes(s: string): string[] {
  return Array.from(clusters(s));
}

function segmented(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  let size = SLICE;
  while (start < s.length) {
    const end = Math.min(s.length, start + size);
    const segs: string[] = [];
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    for (const { segment } of segmenter.segment(s.slice(start, end))) segs.push(segment);
    if (end === s.length) {
      for (const g of segs) out.push(g);
      break;
    }
    if (segs.length === 1) {
      size *= 2; // one cluster longer than the slice (a letter with hundreds of marks)
      continue;
    }
    // The last cluster may go on past the slice: segment it again together with what follows.
    const last = segs.pop() ?? '';
    for (const g of segs) out.push(g);
    start = end - last.length;
    size = SLICE;
  }
  return out;
}

// Widths of clusters seen before: text repeats its characters, and string-width per cluster is slow.
const clusterWidths = new Map<string, number>();
function clusterWidth(g: string): number {
  let w = clusterWidths.get(g);
  if (w === undefined) {
    w = stringWidth(g);
    if (clusterWidths.size >= 4096) clusterWidths.clear();
    clusterWidths.set(g, w);
  }
  return w;
}

/** Same as stringWidth(s), faster on ASCII and on long text (string-width slows down on long lines). */
export function columns(s: string): number {
  if (ASCII.test(s)) return s.length;
  // Short text: string-width in one call is fastest. It also strips ANSI sequences first, which
  // per-cluster measuring would not do.
  if (s.length <= SLICE || s.includes('\u001b') || s.includes('\u009b')) return stringWidth(s);
  let w = 0;
  for (const g of clusters(s)) w += clusterWidth(g);
  return w;
}

/** Cut one line (no `\n`) into pieces of at most `width` columns; a wide character never straddles. */
export function wrapColumns(line: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width) || 1);
  if (ASCII.test(line)) {
    if (line.length <= w) return [line];
    const out: string[] = [];
    for (let i = 0; i < line.length; i += w) out.push(line.slice(i, i + w));
    return out;
  }
  if (columns(line) <= w) return [line];
  const out: string[] = [];
  let cur = '';
  let used = 0;
  for (const g of clusters(line)) {
    const gw = clusterWidth(g);
    if (used + gw > w && cur) {
      out.push(cur);
      cur = '';
      used = 0;
    }
    cur += g;
    used += gw;
  }
  if (cur || out.length === 0) out.push(cur);
  return out;
}

/**
 * The longest prefix of `text` that fits in `width` columns (at least one cluster, so a cut always
 * moves on). Costs the prefix's length, not the text's: for cutting a long word piece by piece.
 */
export function fitColumns(text: string, width: number): string {
  if (ASCII.test(text.slice(0, width + 1))) return text.slice(0, Math.max(1, width));
  // Every cluster is at least one UTF-16 unit; the last one seen may go on past the window.
  const window = text.slice(0, width * 2 + 64);
  const gs = graphemes(window);
  if (window.length < text.length) gs.pop();
  if (gs.length === 0) return graphemes(text)[0] ?? ''; // one cluster longer than the window
  let out = '';
  let used = 0;
  for (const g of gs) {
    const gw = clusterWidth(g);
    if (used + gw > width && out) break;
    out += g;
    used += gw;
  }
  return out;
}

/** The longest prefix that fits in `width` columns, with `…` when cut. */
export function truncateColumns(text: string, width: number): string {
  if (columns(text) <= width) return text;
  const room = Math.max(0, width - 1);
  if (ASCII.test(text)) return text.slice(0, room) + '…';
  let out = '';
  let used = 0;
  for (const g of clusters(text)) {
    const gw = clusterWidth(g);
    if (used + gw > room) break;
    out += g;
    used += gw;
  }
  return out + '…';
}

// ---- word wrap ---------------------------------------------------------------------------

/** Text with a style carried through wrapping untouched (the number means nothing here). */
export interface Span {
  text: string;
  style: number;
}

/** Append, merging with the previous span when the style matches (fewer escape codes later). */
export function appendSpan(line: Span[], s: Span): void {
  const last = line[line.length - 1];
  if (last && last.style === s.style) last.text += s.text;
  else line.push({ text: s.text, style: s.style });
}

/**
 * Greedy word wrap on display columns. Runs of spaces and tabs collapse to one space (none at the
 * start or end of a line); `\n` is a hard break; a word wider than the column (a URL, a hash)
 * starts a new line and is cut by grapheme cluster at the column. The finished Markdown rendering
 * and the live view of a streaming answer both wrap with this, so they break lines the same way.
 */
export function wrapSpans(spans: readonly Span[], maxColumns: number): Span[][] {
  const width = Math.max(1, Math.floor(maxColumns) || 1);
  const lines: Span[][] = [];
  let line: Span[] = [];
  let lineW = 0;
  let word: Span[] = [];
  let wordW = 0;
  let space: Span | null = null;
  const breakLine = (): void => {
    lines.push(line);
    line = [];
    lineW = 0;
  };
  const split = (s: Span): void => {
    if (ASCII.test(s.text)) {
      for (let i = 0; i < s.text.length;) {
        if (lineW >= width) breakLine();
        const take = s.text.slice(i, i + width - lineW);
        appendSpan(line, { text: take, style: s.style });
        lineW += take.length;
        i += take.length;
      }
      return;
    }
    for (const g of clusters(s.text)) {
      const gw = clusterWidth(g);
      if (lineW + gw > width && lineW > 0) breakLine();
      appendSpan(line, { text: g, style: s.style });
      lineW += gw;
    }
  };
  const flush = (): void => {
    if (word.length === 0) return;
    if (lineW > 0 && lineW + 1 + wordW <= width) {
      appendSpan(line, space ?? { text: ' ', style: 0 });
      lineW += 1;
    } else if (lineW > 0) breakLine();
    if (wordW <= width) {
      for (const s of word) appendSpan(line, s);
      lineW += wordW;
    } else {
      for (const s of word) split(s);
    }
    word = [];
    wordW = 0;
    space = null;
  };
  for (const s of spans) {
    for (const part of s.text.split(/([ \t]+|\n)/)) {
      if (part === '') continue;
      if (part === '\n') {
        flush();
        breakLine();
        space = null;
      } else if (part[0] === ' ' || part[0] === '\t') {
        flush();
        if (lineW > 0) space = { text: ' ', style: s.style };
      } else {
        word.push({ text: part, style: s.style });
        wordW += columns(part);
      }
    }
  }
  flush();
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

// Nothing for wrapSpans to collapse or trim.
const LOOSE_SPACE = /^ | $| {2}|[\t\n]/;

/** wrapSpans for plain text: the lines a plain paragraph renders as at `width` columns. */
export function wrapWords(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (!LOOSE_SPACE.test(text) && columns(text) <= w) return [text];
  return wrapSpans([{ text, style: 0 }], w).map((l) => l.map((s) => s.text).join(''));
}
