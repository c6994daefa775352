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
import { openStore } from './memory-store';
import { warn } from './output';

/**
 * `aish memory list --json [--here]`: unreadable lines to stderr, the items as one JSON array. Each
 * item as stored, told whole (but for fields log/fields.ts does not list): `uid` (its own, or the one derived for a record written before uids
 * existed — the same on every machine), `pinned: true` when pinned by a pin record or its own field
 * (no `pinned` when unpinned; a stored `pinned_at` with it), `scope` when it is a project item (none: global), `from`: where it came from (origin.ts; `here` when written here).
 */
export async function memoryListJson(s: Setup, here: boolean): Promise<void> {
  const store = openStore(s);
  for (const l of formatSkipped(basename(s.paths.memoryPath), store.skipped)) warn(l);
  const all = store.items();
  const shape = (it: MemoryItem): object => {
    const { id, pinned: _own, pinned_at, ...rest } = it;
    for (const f of UNLISTED_FIELDS) delete (rest as Record<string, unknown>)[f];
    const out = { id, uid: uidOf(it), ...rest, from: originOf(it) };
    return store.isPinned(it) ? { ...out, pinned: true, ...(pinned_at !== undefined && { pinned_at }) } : out;
  };
  await writeJsonArray(here ? all.filter(scopeFilter(process.cwd())) : all, process.stdout, shape);
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

/** `shape` is applied a batch at a time, so what it makes is young garbage too. */
export async function writeJsonArray<T extends object>(
  items: readonly T[],
  sink: JsonSink = process.stdout,
  shape?: (item: T) => object,
): Promise<void> {
  if (items.length === 0) {
    sink.write('[]\n');
    return;
  }
  for (let i = 0; i < items.length; i += BATCH) {
    if (sink.destroyed) return; // the reader went away (`| head`): nothing more to say
    // `[\n  {…},\n  {…}\n]` with its brackets cut off is exactly these items' part of the whole array.
    const batch = items.slice(i, i + BATCH);
    const inner = escapeForJson(JSON.stringify(shape ? batch.map(shape) : batch, null, 2).slice(2, -2));
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
