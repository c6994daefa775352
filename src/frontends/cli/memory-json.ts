/**
 * `aish memory list --json` written out as it is made: the same bytes as
 * `JSON.stringify(items, null, 2)` plus a newline, in chunks that wait for stdout to drain, so a
 * million items never become one string of hundreds of megabytes.
 */
const CHUNK = 256 * 1024;

export interface JsonSink {
  write(chunk: string): boolean;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  readonly destroyed: boolean;
}

export async function writeJsonArray(items: readonly object[], sink: JsonSink = process.stdout): Promise<void> {
  if (items.length === 0) {
    sink.write('[]\n');
    return;
  }
  let chunk = '[\n';
  const last = items.length - 1;
  for (let i = 0; i <= last; i++) {
    // A JSON string never holds a raw newline, so every newline here starts a line to indent.
    chunk += '  ' + JSON.stringify(items[i], null, 2).replaceAll('\n', '\n  ') + (i < last ? ',\n' : '\n]\n');
    if (chunk.length < CHUNK && i < last) continue;
    if (sink.destroyed) return; // the reader went away (`| head`): nothing more to say
    const more = sink.write(chunk);
    chunk = '';
    if (!more) await drained(sink);
  }
}

function drained(sink: JsonSink): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      sink.off('drain', done);
      sink.off('close', done);
      sink.off('error', done);
      resolve();
    };
    sink.once('drain', done);
    sink.once('close', done);
    sink.once('error', done);
  });
}
