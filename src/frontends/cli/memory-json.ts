/**
 * `aish memory list --json` written out as it is made: the same bytes as
 * `JSON.stringify(items, null, 2)` plus a newline, in chunks that wait for stdout to drain, so a
 * million items never become one string of hundreds of megabytes.
 */
/** Items per chunk: JSON.stringify is fastest on arrays, so each chunk is one array, unwrapped. */
const BATCH = 1024;

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
  for (let i = 0; i < items.length; i += BATCH) {
    if (sink.destroyed) return; // the reader went away (`| head`): nothing more to say
    // `[\n  {…},\n  {…}\n]` with its brackets cut off is exactly these items' part of the whole array.
    const inner = JSON.stringify(items.slice(i, i + BATCH), null, 2).slice(2, -2);
    const end = i + BATCH >= items.length ? '\n]\n' : '';
    if (!sink.write((i === 0 ? '[\n' : ',\n') + inner + end)) await drained(sink);
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
