/**
 * Where a streaming Markdown answer can be cut into finished blocks: after a blank line that is not
 * inside a fenced code block. Finished blocks move to the scrollback while the answer streams, so
 * the live area stays one paragraph long and the final render is small. Incremental: each piece
 * is scanned once, and only its line so far is kept. A long paragraph is also cut at line ends
 * (lineCut), so the live area keeps only its last line.
 */
import { wrapWords } from '../../util/width';

/**
 * The same text in a string of its own. V8 makes a slice of a long string point into its parent,
 * so a block cut from a growing answer would keep that whole answer alive; a concatenation that is
 * sliced again copies just this text (plus one character).
 */
export function ownCopy(text: string): string {
  return ` ${text}`.slice(1);
}

export class BlockSplitter {
  /** Where `line` starts in the whole answer. */
  private at = 0;
  /** The line being written (the text after the last line end). */
  private line = '';
  private inFence = false;
  private fenceMark = '';
  /** The last safe cut: just after a blank line outside a fence. */
  safe = 0;

  /**
   * Feed the next piece of the answer; returns the current safe cut (an offset in the whole
   * answer). Only the line being written is kept, so nothing here copies the answer so far.
   */
  push(piece: string): number {
    if (!piece.includes('\n')) {
      this.line += piece;
      return this.safe;
    }
    const text = this.line + piece;
    let from = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', from)) !== -1) {
      const line = text.slice(from, nl);
      from = nl + 1;
      const fence = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        const mark = fence[1]!;
        if (!this.inFence) {
          this.inFence = true;
          this.fenceMark = mark[0]!.repeat(mark.length);
        } else if (mark[0] === this.fenceMark[0] && mark.length >= this.fenceMark.length && line.trim() === mark) {
          this.inFence = false;
        }
        continue;
      }
      if (!this.inFence && line.trim() === '') this.safe = this.at + from;
    }
    this.at += from;
    this.line = text.slice(from);
    return this.safe;
  }
}

// A line that starts a list, heading, quote, table, HTML, code or setext underline: not plain prose.
const NOT_PROSE = /^(?:\s|[-*+]\s|[>#|<]|={2,}|-{2,}|[`~]{3}|\d+[.)](?:\s|$))/;

const count = (s: string, re: RegExp): number => s.match(re)?.length ?? 0;

/** Inline Markdown left open at the end of `s` (code span, emphasis, link): a cut there would break it. */
function openInline(s: string): boolean {
  const noStrong = s.replace(/\*\*/g, '');
  return (
    count(s, /`/g) % 2 === 1 ||
    ((s.length - noStrong.length) / 2) % 2 === 1 ||
    count(noStrong, /\*/g) % 2 === 1 ||
    count(s, /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu) % 2 === 1 ||
    count(s, /~~/g) % 2 === 1 ||
    count(s, /\[/g) !== count(s, /\]/g) ||
    count(s, /\(/g) !== count(s, /\)/g) ||
    count(s, /</g) !== count(s, />/g)
  );
}

/**
 * A paragraph of several source lines keeps its line breaks (markdown.ts), so its lines before the
 * one being written are final once nothing can still change what they are: each is plain prose
 * (no `|`: a table's header row; no `[`: a link definition), no inline markup is open across the
 * cut, and the line being written already has a character a setext underline (`---`, `===`) or a
 * table's delimiter row cannot have, and does not look like a new block. Then the live area keeps
 * one source line, not the whole paragraph.
 */
function breakCut(tail: string, nl: number): number {
  const head = tail.slice(0, nl);
  const last = tail.slice(nl + 1);
  if (head.split('\n').some((l) => l.trim() === '' || NOT_PROSE.test(l) || l.includes('|') || l.startsWith('['))) return 0;
  if (openInline(head) || !/[^\s=|:-]/.test(last) || NOT_PROSE.test(last)) return 0;
  return nl + 1;
}

/**
 * Where the unfinished paragraph `tail` (the answer after its last cut) can be cut at a line end:
 * the start of its last visual line at `width` columns, or 0. The lines before it are final (a
 * greedy wrap never changes a line once a word went to the next one), so they can go to the
 * scrollback and the live area redraws one line, not the whole paragraph, each frame. Only plain
 * prose is cut, where no inline markup is open and the rest does not look like a new block.
 */
export function lineCut(tail: string, width: number): number {
  if (NOT_PROSE.test(tail)) return 0;
  const nl = tail.lastIndexOf('\n');
  if (nl >= 0) return breakCut(tail, nl);
  if (tail.length <= width) return 0;
  const lines = wrapWords(tail, width);
  const starts: number[] = [];
  let pos = 0;
  for (const l of lines) {
    const at = tail.indexOf(l, pos);
    if (at < 0) return 0; // the wrap changed the text (it should not): no cut
    starts.push(at);
    pos = at + l.length;
  }
  for (let k = lines.length - 1; k >= 1; k--) {
    const cut = starts[k]!;
    // A word broken across lines, a new-block look-alike, or open markup: try an earlier line.
    if (!/\s/.test(tail[cut - 1] ?? '') || NOT_PROSE.test(tail.slice(cut)) || openInline(tail.slice(0, cut))) continue;
    return cut;
  }
  return 0;
}
