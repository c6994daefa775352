/**
 * Lines of memory.jsonl that are not valid UTF-8 (a hand edit saved as Latin-1, say). The parser
 * reads text, where such bytes become U+FFFD; this keeps the original bytes at hand, so the lines
 * can be reported by number and written back byte for byte instead of with U+FFFD. Only built when
 * the decoded text holds a U+FFFD at all (one native search otherwise; importing node:buffer for
 * its isUtf8 would cost start-up several milliseconds).
 */

interface InvalidSpan {
  /** The lines' bytes, without the final newline. */
  bytes: Buffer;
  /** Only an unfinished last line cut inside a character: a torn write, not a bad encoding. */
  cutOnly: boolean;
}

export interface RawLines {
  /** File lines `line`..`endLine` when any of them is not valid UTF-8. */
  invalidSpan(line: number, endLine: number): InvalidSpan | undefined;
}

/** null when all of `buf` (decoded: `text`; its first line is file line `firstLine`) is valid UTF-8. */
export function invalidUtf8Lines(buf: Buffer, text: string, firstLine: number): RawLines | null {
  if (text.indexOf('\ufffd') === -1) return null; // invalid bytes always decode to U+FFFD

  const starts: number[] = [];
  const bad = new Map<number, boolean>(); // line index -> cut only
  for (let at = 0; at < buf.length;) {
    const nl = buf.indexOf(0x0a, at);
    const end = nl === -1 ? buf.length : nl;
    const line = buf.subarray(at, end);
    if (!isUtf8(line)) bad.set(starts.length, nl === -1 && isUtf8(line.subarray(0, cutStart(line))));
    starts.push(at);
    at = end + 1;
  }
  return {
    invalidSpan(line, endLine) {
      const a = line - firstLine;
      const b = endLine - firstLine;
      if (a < 0 || a >= starts.length) return undefined;
      let found = false;
      let cutOnly = true;
      for (let i = a; i <= b; i++) {
        const cut = bad.get(i);
        if (cut === undefined) continue;
        found = true;
        cutOnly &&= cut;
      }
      if (!found) return undefined;
      let end = b + 1 < starts.length ? starts[b + 1]! - 1 : buf.length;
      if (b + 1 >= starts.length && buf[end - 1] === 0x0a) end--; // the last line's own newline
      return { bytes: Buffer.from(buf.subarray(starts[a], end)), cutOnly };
    },
  };
}

/** Where a character cut off at the end of `b` begins (b.length when the end is not such a cut). */
function cutStart(b: Buffer): number {
  for (let i = b.length - 1; i >= Math.max(0, b.length - 3); i--) {
    const c = b[i]!;
    if ((c & 0xc0) === 0x80) continue; // continuation byte: look further back
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return b.length - i < need ? i : b.length;
  }
  return b.length;
}

let strict: TextDecoder | undefined;
function isUtf8(b: Buffer): boolean {
  strict ??= new TextDecoder('utf-8', { fatal: true });
  try {
    strict.decode(b);
    return true;
  } catch {
    return false;
  }
}
