/**
 * The one output boundary: every write to stdout and stderr — Ink's frames, readline, commander,
 * console, our own lines — goes through filterOutput before it reaches the terminal or the pipe.
 * Per-path cleaning (the engine's host, Ink's own text sanitizer) still helps with layout; this is
 * what makes a path nobody thought of safe too. Only writeRaw, for aish's own OSC 52 copy, bypasses it.
 */
import { StringDecoder } from 'node:string_decoder';
import { filterOutput, needsFilter, type OutputMode } from './output-filter';

type Write = NodeJS.WriteStream['write'];
type Callback = (err?: Error | null) => void;

let mode: OutputMode = 'line';
// NO_COLOR set and not empty (no-color.org): no colour from aish on any path, Ink's included (its
// chalk does not read it); bold, dim and inverse (the drawn cursor) are styles and stay.
const noColour = Boolean(process.env.NO_COLOR);
const originals = new Map<NodeJS.WritableStream, Write>();

/** `screen` while the REPL's Ink frames are on; `line` (the default) otherwise. */
export function setOutputMode(next: OutputMode): void {
  mode = next;
}

/**
 * For the life of a readline prompt in a terminal: its line editing (cursor left/right, to a
 * column, erase) may pass. Returns the function that ends it. Text the prompt shows that came from
 * elsewhere goes through `shown` first, so it cannot ride on the wider mode.
 */
export function allowLineEditing(): () => void {
  const before = mode;
  if (mode === 'line') mode = 'edit';
  return () => {
    mode = before;
  };
}

/** Text from elsewhere, as `line` mode would show it (for a readline prompt's question). */
export function shown(text: string): string {
  return filterOutput(text, 'line');
}

function guard(stream: NodeJS.WriteStream): void {
  if (originals.has(stream)) return;
  const original: Write = stream.write.bind(stream);
  originals.set(stream, original);
  // Bytes may split a UTF-8 character (or an 8-bit C1 spelled as one) between two writes.
  const decoder = new StringDecoder('utf8');
  const write = function (chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
    const callback = (typeof encoding === 'function' ? encoding : cb) as Callback | undefined;
    const enc = typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined;
    let text: string;
    if (typeof chunk === 'string') text = enc && enc !== 'utf8' && enc !== 'utf-8' ? decoder.write(Buffer.from(chunk, enc)) : chunk;
    else if (chunk instanceof Uint8Array) text = decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    else text = String(chunk);
    const safe = needsFilter(text) ? filterOutput(text, mode, noColour) : text;
    return original(safe, 'utf8', callback);
  };
  stream.write = write;
}

/** Puts the boundary on stdout and stderr (once; later calls change nothing). */
export function guardOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const s of streams) guard(s);
}

/** Writes `text` past the boundary: only for sequences aish itself builds (the OSC 52 copy). */
export function writeRaw(stream: NodeJS.WriteStream, text: string): void {
  (originals.get(stream) ?? stream.write.bind(stream))(text);
}
