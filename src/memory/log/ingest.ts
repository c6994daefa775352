/**
 * Bytes newly read from memory.jsonl into the state: complete lines for good (the cursor moves past
 * them), an unfinished end provisionally (it may still grow, and is taken back before the next read).
 *
 * Complete lines are decoded and parsed a piece at a time: at 1M items the whole file as one
 * string (plus its array of lines) would double the peak memory of a load for nothing.
 */
import type { FileCursor } from './file-cursor';
import { cannotRead } from './file-errors';
import { invalidUtf8Lines } from './raw-lines';
import type { MemoryState } from './state';

/** Bytes per piece (a piece ends at a newline): 1 MiB measured lowest in peak RSS, and no slower than 8. */
const PIECE = 2 ** 20;

function ingestFresh(state: MemoryState, cursor: FileCursor, fresh: Buffer, piece = PIECE): void {
  const start = ingestLines(state, cursor, fresh.subarray(0, fresh.lastIndexOf(0x0a) + 1), piece);
  cursor.release();
  const rest = fresh.subarray(start);
  if (rest.length > 0) {
    const first = cursor.lines + 1;
    const text = rest.toString('utf8');
    state.ingestProvisional(text, first, rest[rest.length - 1] === 0x0a, invalidUtf8Lines(rest, text, first));
  }
}

/**
 * Read what was appended since the cursor into the state, a piece at a time from the file, so a
 * full load never holds the whole file's bytes. 'missing' and 'rewritten' are the cursor's.
 */
export function ingestFile(state: MemoryState, cursor: FileCursor, path: string, piece = PIECE): 'missing' | 'rewritten' | 'done' {
  let max = piece;
  for (;;) {
    let r: ReturnType<FileCursor['read']>;
    try {
      r = cursor.read(path, max);
    } catch (err) {
      throw cannotRead(path, err);
    }
    if (r.kind !== 'fresh') return r.kind;
    if (!r.more) {
      ingestFresh(state, cursor, r.fresh, piece);
      return 'done';
    }
    // Only whole lines now; the end of this read is the start of the next.
    const done = ingestLines(state, cursor, r.fresh.subarray(0, r.fresh.lastIndexOf(0x0a) + 1), piece);
    max = done === 0 ? max * 2 : piece; // a line (or an open object) longer than a piece
  }
}

/** Whole lines, a piece at a time; returns the bytes committed (an object still open at the end is not). */
function ingestLines(state: MemoryState, cursor: FileCursor, complete: Buffer, piece: number): number {
  let start = 0;
  let size = piece;
  while (start < complete.length) {
    const cut = start + size >= complete.length ? complete.length : complete.indexOf(0x0a, start + size) + 1;
    const done = ingestPiece(state, cursor, complete.subarray(start, cut));
    const whole = done === cut - start;
    start += done;
    if (!whole && cut === complete.length) break;
    // A multi-line object still open at a piece's end is read again with the next piece; one that
    // fills a whole piece (absurdly long lines) gets everything that is left.
    size = done === 0 ? Infinity : piece;
  }
  return start;
}

/** Parse whole lines; returns the bytes committed (fewer than given when an object is still open at the end). */
function ingestPiece(state: MemoryState, cursor: FileCursor, bytes: Buffer): number {
  const text = bytes.toString('utf8');
  const held = state.ingest(text, cursor.lines + 1, invalidUtf8Lines(bytes, text, cursor.lines + 1));
  if (held === null) {
    cursor.commit(bytes.length, countNewlines(bytes));
    return bytes.length;
  }
  // `held` counts characters; find the same line start in bytes by counting newlines (re-encoding
  // the text would not give back the original bytes of invalid UTF-8).
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < held; i = text.indexOf('\n', i + 1)) lines++;
  let committed = 0;
  for (let n = 0; n < lines; n++) committed = bytes.indexOf(0x0a, committed) + 1;
  cursor.commit(committed, lines);
  return committed;
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  let i = -1;
  while ((i = buf.indexOf(0x0a, i + 1)) !== -1) n++;
  return n;
}
