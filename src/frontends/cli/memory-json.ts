/**
 * `aish memory list --json` written out as it is made: the same bytes as
 * `JSON.stringify(items, null, 2)` plus a newline, in chunks that wait for stdout to drain, so a
 * million items never become one string of hundreds of megabytes. Its own module, so a script's
 * `list --json` loads only the store, not the rest of the memory commands.
 */
import { basename } from 'node:path';
import type { Setup } from '../../config/setup';
import { formatSkipped } from '../../memory/format';
import { UNLISTED_FIELDS } from '../../memory/log/field-codec';
import { uidOf } from '../../memory/log/identity';
import { originOf } from '../../memory/origin';
import { scopeFilter } from '../../memory/project/project';
import type { MemoryItem } from '../../memory/types';
import { escapeForJson } from '../../util/output-filter';
import { CorruptIndex } from '../../memory/index/sidecar';
import { listedItems } from '../../memory/index/list';
import { MemoryIndex } from '../../memory/index/memory-index';
import { useConfirmedProjects } from '../../memory/project/project-trust';
import { AishError } from '../../util/errors';
import { memoryOn, openStore, storeOptions } from './memory-store';
import { warn } from './output';

/**
 * `aish memory list --json [--here]`: unreadable lines to stderr, the items as one JSON array. Each
 * item as stored, told whole (but for fields log/fields.ts does not list): `uid` (its own, or the one derived for a record written before uids
 * existed — the same on every machine), `pinned: true` when pinned by a pin record or its own field
 * (no `pinned` when unpinned; a stored `pinned_at` with it), `scope` when it is a project item (none: global), `from`: where it came from (origin.ts; `here` when written here).
 *
 * Read through the index when it is in step with the file (index/list.ts: a stretch of records at a
 * time, never the whole file in memory); without one, or with skipped lines to report one by one,
 * from a full read — a listing never builds the index.
 */
export async function memoryListJson(s: Setup, here: boolean): Promise<void> {
  memoryOn(s);
  // `--here` shows what applies here: identity items only at checkouts the user confirmed.
  useConfirmedProjects(s.paths.memoryPath, storeOptions());
  const applies = here ? scopeFilter(process.cwd()) : null;
  const ix = new MemoryIndex(s.paths.memoryPath);
  try {
    if (inStep(ix)) {
      const listed = listedItems(ix, ix.file());
      await writeJsonArray(applies ? filter(listed, ([it]) => applies(it)) : listed, process.stdout, ([it, pinned]) => shaped(it, pinned));
      return;
    }
  } catch (err) {
    if (err instanceof CorruptIndex)
      throw new AishError(`${basename(s.paths.memoryPath)} changed while it was listed — run the command again`);
    throw err;
  } finally {
    ix.close();
  }
  const store = openStore(s);
  for (const l of formatSkipped(basename(s.paths.memoryPath), store.skipped)) warn(l);
  const all = store.items();
  await writeJsonArray(applies ? all.filter(applies) : all, process.stdout, (it) => shaped(it, store.isPinned(it)));
}

/** An index in step with memory.jsonl (none is built here), and no skipped line to name. */
function inStep(ix: MemoryIndex): boolean {
  try {
    if (!ix.refresh(false)) return false;
  } catch {
    return false; // the full read reports what is wrong with the file
  }
  const c = ix.counts();
  return c.unreadable + c.keptAsIs === 0;
}

function shaped(it: MemoryItem, pinned: boolean): object {
  const { id, pinned: _own, pinned_at, ...rest } = it;
  for (const f of UNLISTED_FIELDS) delete (rest as Record<string, unknown>)[f];
  const out = { id, uid: uidOf(it), ...rest, from: originOf(it) };
  return pinned ? { ...out, pinned: true, ...(pinned_at !== undefined && { pinned_at }) } : out;
}

function* filter<T>(xs: Iterable<T>, keep: (x: T) => boolean): Generator<T> {
  for (const x of xs) if (keep(x)) yield x;
}

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
