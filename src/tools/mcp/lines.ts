/**
 * A server's stdout cut into lines, each bounded. The SDK's ReadBuffer gives up on the whole
 * connection when its buffer passes 10 MB (and copies the buffer on every chunk); here a line past
 * the limit is read to its end without being kept, and only its ends are handed on, so the one
 * answer that was too big fails and the server goes on.
 */

/** The longest line kept: the SDK's own limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** What is kept of an over-long line's ends: enough for its id. */
const KEEP = 4096;

export type LineEvent = { line: string } | { tooLong: { head: string; tail: string } };

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping: { head: Buffer; tail: Buffer } | null = null;

  constructor(private readonly maxLine = MAX_LINE_BYTES) {}

  /** The lines `chunk` completes, in order. */
  push(chunk: Buffer): LineEvent[] {
    const out: LineEvent[] = [];
    for (let at = 0; at < chunk.length;) {
      const nl = chunk.indexOf(10, at);
      this.take(chunk.subarray(at, nl < 0 ? chunk.length : nl));
      if (nl < 0) break;
      out.push(this.end());
      at = nl + 1;
    }
    return out;
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
    this.skipping = null;
  }

  /** Part of a line (no newline in it): kept, or past the limit only its ends. */
  take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.tail = last(Buffer.concat([this.skipping.tail, piece]));
      return;
    }
    if (this.size + piece.length <= this.maxLine) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const all = Buffer.concat([...this.parts, piece]);
    this.skipping = { head: Buffer.from(all.subarray(0, KEEP)), tail: last(all) };
    this.parts = [];
    this.size = 0;
  }

  /** The line ended (its newline was read): what it was. */
  end(): LineEvent {
    if (this.skipping) {
      const { head, tail } = this.skipping;
      this.skipping = null;
      return { tooLong: { head: head.toString('utf8'), tail: tail.toString('utf8') } };
    }
    const text = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    return { line: text.endsWith('\r') ? text.slice(0, -1) : text };
  }
}

function last(b: Buffer): Buffer {
  return b.length <= KEEP ? b : Buffer.from(b.subarray(b.length - KEEP));
}

const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\\n]|\\.){0,200}")/;
const ID_LAST = /[{,]\s*"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\\n]|\\.){0,200}")\s*\}\s*$/;

/** The id of a message too long to parse: at its start or, as the SDK writes answers, at its end. */
export function idOfLong(head: string, tail: string): string | number | undefined {
  const m = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (!m) return undefined;
  try {
    const v: unknown = JSON.parse(m[1]!);
    return typeof v === 'string' || typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}
