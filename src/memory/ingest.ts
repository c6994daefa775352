/**
 * Bytes newly read from memory.jsonl into the state: complete lines for good (the cursor moves past
 * them), an unfinished end provisionally (it may still grow, and is taken back before the next read).
 */
import type { FileCursor } from './file-cursor';
import { invalidUtf8Lines } from './raw-lines';
import type { MemoryState } from './state';

export function ingestFresh(state: MemoryState, cursor: FileCursor, fresh: Buffer): void {
  const nl = fresh.lastIndexOf(0x0a);
  let committed = nl + 1; // bytes of `fresh` parsed for good
  if (nl >= 0) {
    const complete = fresh.subarray(0, nl + 1);
    const text = complete.toString('utf8');
    const held = state.ingest(text, cursor.lines + 1, invalidUtf8Lines(complete, text, cursor.lines + 1));
    let lines: number;
    if (held === null) lines = countNewlines(complete);
    else {
      // A multi-line object still open at the end: it is read again with what follows. `held`
      // counts characters; find the same line start in bytes by counting newlines (re-encoding
      // the text would not give back the original bytes of invalid UTF-8).
      lines = 0;
      for (let i = text.indexOf('\n'); i !== -1 && i < held; i = text.indexOf('\n', i + 1)) lines++;
      committed = 0;
      for (let n = 0; n < lines; n++) committed = complete.indexOf(0x0a, committed) + 1;
    }
    cursor.commit(committed, lines);
  }
  const rest = fresh.subarray(committed);
  if (rest.length > 0) {
    const first = cursor.lines + 1;
    const text = rest.toString('utf8');
    state.ingestProvisional(text, first, rest[rest.length - 1] === 0x0a, invalidUtf8Lines(rest, text, first));
  }
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  let i = -1;
  while ((i = buf.indexOf(0x0a, i + 1)) !== -1) n++;
  return n;
}
