/**
 * Grapheme-cluster and word boundaries for the line editor: the cursor only ever sits between two
 * clusters, so an emoji, a flag or a letter with its accents moves and deletes as one character
 * and no edit can split a surrogate pair. Pure functions over (text, index in UTF-16 units).
 */
import { columns } from '../../util/width';

// Made on first use: the first Intl.Segmenter of a process loads ICU data.
let segmenter: Intl.Segmenter | undefined;
const seg = (): Intl.Segmenter => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

// Segmenting a long line costs time linear in its length; backward walks look at most this far.
const WINDOW = 2048;
// Printable ASCII or a newline: between two of these there is always a cluster boundary.
const PLAIN = /[\x20-\x7e\n]/;

// Not lastIndexOf('\n', i - 1) alone: a negative start counts as 0, so at i = 0 a text that starts
// with a newline would give 1, and ↑ from the empty first line would never reach it (or history).
const lineStart = (text: string, i: number): number => (i <= 0 ? 0 : text.lastIndexOf('\n', i - 1) + 1);
function lineEnd(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl === -1 ? text.length : nl;
}

/**
 * A boundary before `i` from which segmenting gives the true clusters: the line start (a newline
 * always ends a cluster), or in a very long line a spot between two plain characters near `i`.
 */
function safeStart(text: string, i: number): number {
  const start = lineStart(text, i);
  if (i - start <= WINDOW) return start;
  for (let p = i - WINDOW; p > start; p--) if (PLAIN.test(text[p - 1]!) && PLAIN.test(text[p]!)) return p;
  return start;
}

/** The clusters between the line start (or a safe spot) and the boundary `i`, in order. */
function clustersBefore(text: string, i: number): string[] {
  const from = safeStart(text, i);
  return Array.from(seg().segment(text.slice(from, i)), (s) => s.segment);
}

/** The clusters from the boundary `i` on, lazily (a word move usually stops after a few). */
function* clustersAfter(text: string, i: number): Generator<string> {
  for (const s of seg().segment(text.slice(i))) yield s.segment;
}

/** The boundary before `i` (0 at the start). */
export function prevBoundary(text: string, i: number): number {
  if (i <= 0) return 0;
  if (text[i - 1] === '\n') return i - 1;
  const last = clustersBefore(text, i).at(-1);
  return last === undefined ? i - 1 : i - last.length;
}

/** The boundary after `i` (the text's length at the end). */
export function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (text[i] === '\n') return i + 1;
  const first = seg()
    .segment(text.slice(i, lineEnd(text, i)))
    .containing(0);
  return first === undefined ? i + 1 : i + first.segment.length;
}

/** The nearest boundary at or after `i` (after an insert that merged with its neighbours). */
export function snapForward(text: string, i: number): number {
  if (i <= 0 || i >= text.length) return Math.max(0, Math.min(i, text.length));
  const start = safeStart(text, i);
  const hit = seg()
    .segment(text.slice(start, lineEnd(text, i)))
    .containing(i - start);
  return hit === undefined || hit.index + start === i ? i : start + hit.index + hit.segment.length;
}

/** readline's words: runs of letters and digits (a letter keeps its accents). */
const isWord = (cluster: string): boolean => /^[\p{L}\p{N}]/u.test(cluster);

/** Alt-b: back to the start of this or the previous word. */
export function wordLeft(text: string, i: number): number {
  let p = i;
  let inWord = false;
  while (p > 0) {
    // A line break is never part of a word (and the segmenter only ever sees one line).
    if (text[p - 1] === '\n') {
      if (inWord) return p;
      p -= 1;
      continue;
    }
    const cs = clustersBefore(text, p);
    for (let k = cs.length - 1; k >= 0; k--) {
      const w = isWord(cs[k]!);
      if (inWord && !w) return p;
      inWord ||= w;
      p -= cs[k]!.length;
    }
  }
  return 0;
}

/** Alt-f: forward to the end of this or the next word. */
export function wordRight(text: string, i: number): number {
  let p = i;
  let inWord = false;
  for (const c of clustersAfter(text, i)) {
    const w = isWord(c);
    if (inWord && !w) return p;
    inWord ||= w;
    p += c.length;
  }
  return p;
}

/** The display column of boundary `i` within its line. */
export const columnOf = (text: string, i: number): number => columns(text.slice(lineStart(text, i), i));

/** The boundary in the line starting at `start` closest to display column `col`, without passing it. */
export function atColumn(text: string, start: number, col: number): number {
  const stop = lineEnd(text, start);
  let p = start;
  let used = 0;
  for (const s of seg().segment(text.slice(start, stop))) {
    const w = columns(s.segment);
    if (used + w > col) break;
    used += w;
    p += s.segment.length;
  }
  return p;
}

export { lineEnd, lineStart };
