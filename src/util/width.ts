/**
 * Display columns, the way Ink measures them (string-width: East Asian wide characters and emoji
 * take two columns, combining marks none), and cutting text by columns without splitting a
 * grapheme cluster (an emoji with its modifiers, a letter with its accents).
 */
import stringWidth from 'string-width';

export { stringWidth };

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// Printable ASCII: one column per UTF-16 unit, so it can be cut with slice().
const ASCII = /^[\x20-\x7e]*$/;

/** Cut one line (no `\n`) into pieces of at most `width` columns; a wide character never straddles. */
export function wrapColumns(line: string, width: number): string[] {
  const w = Math.max(1, width);
  if (stringWidth(line) <= w) return [line];
  const out: string[] = [];
  if (ASCII.test(line)) {
    for (let i = 0; i < line.length; i += w) out.push(line.slice(i, i + w));
    return out;
  }
  let cur = '';
  let used = 0;
  for (const { segment } of segmenter.segment(line)) {
    const sw = stringWidth(segment);
    if (used + sw > w && cur) {
      out.push(cur);
      cur = '';
      used = 0;
    }
    cur += segment;
    used += sw;
  }
  if (cur || out.length === 0) out.push(cur);
  return out;
}

/** The longest prefix that fits in `width` columns, with `…` when cut. */
export function truncateColumns(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const room = Math.max(0, width - 1);
  if (ASCII.test(text)) return text.slice(0, room) + '…';
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const sw = stringWidth(segment);
    if (used + sw > room) break;
    out += segment;
    used += sw;
  }
  return out + '…';
}

/** Pad with spaces to `width` columns (no-op when already as wide). */
export function padColumns(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
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
export function wrapSpans(spans: readonly Span[], width: number): Span[][] {
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
      for (let i = 0; i < s.text.length; ) {
        if (lineW >= width) breakLine();
        const take = s.text.slice(i, i + width - lineW);
        appendSpan(line, { text: take, style: s.style });
        lineW += take.length;
        i += take.length;
      }
      return;
    }
    for (const { segment } of segmenter.segment(s.text)) {
      const cw = stringWidth(segment);
      if (lineW + cw > width && lineW > 0) breakLine();
      appendSpan(line, { text: segment, style: s.style });
      lineW += cw;
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
        wordW += stringWidth(part);
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
  if (!LOOSE_SPACE.test(text) && stringWidth(text) <= w) return [text];
  return wrapSpans([{ text, style: 0 }], w).map((l) => l.map((s) => s.text).join(''));
}
