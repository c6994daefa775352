/**
 * Lines of piped stdin for plain mode, read with bounds. readline keeps a line whole however long
 * it grows, so `aish < /dev/zero` took all memory and died with a RangeError. Here a line longer
 * than MAX_LINE_BYTES, a NUL byte (binary input, never typed text) or a directory on stdin ends
 * the reading with a StdinRefused naming why; the lines before it are still given.
 * Line ends as readline's: `\n`, `\r\n` or a lone `\r`.
 */
import { fstatSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { AishError } from '../util/errors';

/** No prompt or command is this long; a line past it is not input meant for aish. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

const WHAT_TO_DO = 'pipe prompts and :commands as lines of text';

export class StdinRefused extends AishError {}

function stdinIsDirectory(): boolean {
  try {
    return fstatSync(0).isDirectory();
  } catch {
    return false;
  }
}

export async function* stdinLines(input: AsyncIterable<Buffer | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<string> {
  if (stdinIsDirectory()) throw new StdinRefused(`stdin is a directory, not text — ${WHAT_TO_DO}`);
  const decoder = new StringDecoder('utf8');
  let rest = ''; // the text after the last line end (a `\r` at its end may be half of a `\r\n`)
  let lineNo = 0;
  for await (const c of input) {
    const chunk = typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
    const nul = chunk.indexOf(0);
    rest += decoder.write(nul === -1 ? chunk : chunk.subarray(0, nul));
    const parts = rest.split(/\r\n|\n|\r(?!$)/);
    rest = parts.pop() ?? '';
    for (const line of parts) {
      lineNo++;
      yield line;
    }
    if (nul !== -1)
      throw new StdinRefused(`stdin line ${lineNo + 1} holds NUL bytes: binary, not text — ${WHAT_TO_DO}; nothing more was read`);
    if (rest.length > maxLineBytes / 4 && Buffer.byteLength(rest) > maxLineBytes) {
      throw new StdinRefused(
        `stdin line ${lineNo + 1} is longer than ${maxLineBytes / 1024 / 1024} MiB — ${WHAT_TO_DO}; nothing more was read`,
      );
    }
  }
  rest += decoder.end();
  if (rest.endsWith('\r')) rest = rest.slice(0, -1);
  if (rest) yield rest;
}
