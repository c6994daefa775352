/**
 * Hanging indents for lists (`:help`, `:memory list`, `:sessions`…): a row longer than the
 * terminal is wrapped at word boundaries and its continuation lines are indented, so each row
 * still reads as one entry at 40 columns. Spacing inside a row (aligned columns) is kept; only
 * the spaces where a row breaks are dropped.
 */
import { columns, fitColumns } from './width';

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
    // A word longer than the room left (a URL, a path, `a|b|c`): cut by columns.
    const pieces = ww <= width - curW ? [word] : cutWord(word, width - curW, width - pad.length);
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

/** Where an over-long word reads best cut: just after one of these (`add|list|…`, a path, a list). */
const CUT_AFTER = /[|/,;]/g;

/**
 * `word` in pieces: the first at most `first` columns, the rest at most `rest`. A piece ends just
 * after a `|`, `/`, `,` or `;` when one leaves it at least half full, else at the column.
 */
function cutWord(word: string, first: number, rest: number): string[] {
  const out: string[] = [];
  let left = word;
  for (let room = Math.max(1, first); ; room = Math.max(1, rest)) {
    let head = fitColumns(left, room);
    if (head.length === left.length) break;
    let after = 0;
    for (const m of head.matchAll(CUT_AFTER)) after = m.index + 1;
    if (after < head.length && columns(head.slice(0, after)) * 2 >= room) head = head.slice(0, after);
    out.push(head);
    left = left.slice(head.length);
  }
  out.push(left);
  return out;
}
