/**
 * Hanging indents for lists (`:help`, `:memory list`, `:sessions`…): a row longer than the
 * terminal is wrapped at word boundaries and its continuation lines are indented, so each row
 * still reads as one entry at 40 columns. Spacing inside a row (aligned columns) is kept; only
 * the spaces where a row breaks are dropped.
 */
import { columns, wrapColumns } from './width';

/**
 * Each line of `text` wrapped to `width` columns; continuation lines indented `hang` past the row's
 * own indent, or `hang` from the edge with `fromEdge` (rows that start with a mark column, blank on
 * most rows, would otherwise hang at two depths).
 */
export function hangWrap(text: string, width: number, hang: number, opts: { fromEdge?: boolean } = {}): string {
  const w = Math.max(8, Math.floor(width));
  return text
    .split('\n')
    .flatMap((line) => hangLine(line, w, hang, opts.fromEdge === true))
    .join('\n');
}

function hangLine(line: string, width: number, hang: number, fromEdge: boolean): string[] {
  if (columns(line) <= width) return [line];
  const own = fromEdge ? 0 : /^ */.exec(line)![0].length;
  // Never more than half the width, so a deep row still has room for its words.
  const pad = ' '.repeat(Math.min(own + hang, Math.floor(width / 2)));
  const out: string[] = [];
  let cur = line.slice(0, own);
  let curW = own;
  let fresh = true; // nothing but indentation on `cur` yet
  for (const [, space = '', word = ''] of line.slice(own).matchAll(/( *)(\S+)/g)) {
    const ww = columns(word);
    const sw = fresh ? 0 : space.length;
    if (curW + sw + ww <= width) {
      cur += (fresh ? '' : space) + word;
      curW += sw + ww;
      fresh = false;
      continue;
    }
    if (!fresh) {
      out.push(cur);
      cur = pad;
      curW = pad.length;
    }
    // A word longer than the room left (a URL, a path): cut by columns.
    const pieces = ww <= width - curW ? [word] : wrapColumns(word, width - curW);
    for (const [i, p] of pieces.entries()) {
      if (i > 0) {
        out.push(cur);
        cur = pad;
        curW = pad.length;
      }
      cur += p;
      curW += columns(p);
    }
    fresh = false;
  }
  out.push(cur);
  return out;
}
