/**
 * JSON arrays written out as they are made (`aish memory list --json`): the same bytes as
 * `JSON.stringify(items, null, 2)` plus a newline, in chunks that wait for stdout to drain, so a
 * million items never become one string of hundreds of megabytes.
 */
import { escapeForJson } from '../../util/output-filter';

/**
 * Items per chunk: JSON.stringify is fastest on arrays, so each chunk is one array, unwrapped; small
 * enough (≈70 KB) that its string is young garbage, not a large object only a full collection frees.
 */
const BATCH = 256;

export interface JsonSink {
  write(chunk: string): boolean;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  readonly destroyed: boolean;
}

/** `shape` is applied a batch at a time, so what it makes is young garbage too; `items` are taken a batch at a time. */
export async function writeJsonArray<T extends object>(
  items: Iterable<T>,
  sink: JsonSink = process.stdout,
  shape?: (item: T) => object,
): Promise<void> {
  let wrote = false;
  for (const batch of batches(items)) {
    if (sink.destroyed) return; // the reader went away (`| head`): nothing more to say
    // `[\n  {…},\n  {…}\n]` with its brackets cut off is exactly these items' part of the whole array.
    const inner = escapeForJson(JSON.stringify(shape ? batch.map(shape) : batch, null, 2).slice(2, -2));
    const ok = sink.write((wrote ? ',\n' : '[\n') + inner);
    wrote = true;
    if (!ok) await drained(sink);
  }
  if (!sink.destroyed) sink.write(wrote ? '\n]\n' : '[]\n');
}

function* batches<T>(items: Iterable<T>): Generator<T[]> {
  let batch: T[] = [];
  for (const it of items) {
    batch.push(it);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
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
