/**
 * How a prompt's text takes rows on the screen: the input line while it is typed and its echo in
 * the scrollback both draw these rows, so the two look the same at any width. Widths are display
 * columns (string-width, as Ink measures), so Ink never wraps a row again by itself.
 */
import { columns, graphemes } from '../../util/width';

export interface PromptRow {
  /** The row's text is `text.slice(start, end)`. */
  start: number;
  end: number;
  /** Display columns of that text. */
  width: number;
  /** The first row of a line of the text: it is drawn after the prompt (or `… ` for later lines). */
  head: boolean;
}

const SPACE = /^[ \t]$/;

/**
 * The rows of `text` at `width` columns, after a prompt `promptWidth` columns wide on each line's
 * first row (later rows start at column 0, like readline). Breaks fall at spaces, as the answer's
 * word wrap does; only a word wider than its row is cut, by grapheme cluster. Spaces where a row
 * breaks are not drawn (no row starts with one); every other character is on exactly one row.
 */
export function wrapPrompt(text: string, width: number, promptWidth: number): PromptRow[] {
  const rows: PromptRow[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    wrapLine(line, offset, Math.max(1, width), promptWidth, rows);
    offset += line.length + 1;
  }
  return rows;
}

function wrapLine(line: string, base: number, width: number, promptWidth: number, rows: PromptRow[]): void {
  let start = base;
  let used = 0;
  let avail = Math.max(1, width - promptWidth);
  let head = true;
  const close = (end: number, next: number) => {
    rows.push({ start, end, width: used, head });
    start = next;
    used = 0;
    avail = width;
    head = false;
  };
  let pos = base;
  let skipping = false; // inside the spaces a row broke at
  const parts = line.split(/([ \t]+)/);
  for (const part of parts) {
    if (part === '') continue;
    if (SPACE.test(part[0]!)) {
      for (let k = 0; k < part.length; k++) {
        if (skipping) {
          start = pos + 1;
        } else if (used + 1 <= avail) {
          used += 1;
        } else {
          close(pos, pos + 1);
          skipping = true;
        }
        pos += 1;
      }
      continue;
    }
    skipping = false;
    const w = columns(part);
    if (used + w <= avail) {
      used += w;
    } else if (used > 0 && w <= width) {
      close(pos, pos);
      used = w;
    } else {
      // Wider than the row: a new row (unless this one is still empty), then cut by cluster.
      if (used > 0) close(pos, pos);
      let at = pos;
      for (const g of graphemes(part)) {
        const gw = columns(g);
        if (used + gw > avail && used > 0) close(at, at);
        used += gw;
        at += g.length;
      }
    }
    pos += part.length;
  }
  rows.push({ start, end: base + line.length, width: used, head });
}

/** The row that shows the cursor at `cursor`, and the cursor's index within that row's text. */
export function cursorRow(rows: readonly PromptRow[], cursor: number): { row: number; at: number } {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const next = rows[i + 1];
    // On this row, at its end (the next row starts after the line's newline), or in the spaces
    // hidden at its break. Not every later index: an empty line's row would take the line below's.
    if (cursor >= r.start && (cursor < r.end || !next || cursor < next.start)) return { row: i, at: Math.min(cursor, r.end) - r.start };
  }
  return { row: rows.length - 1, at: 0 };
}
