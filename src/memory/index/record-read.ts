/** Item records read from memory.jsonl by offset (a record, or a stretch of them), checked against the index. */
import { parseInto } from '../log/parse';
import type { MemoryItem } from '../types';
import { CorruptIndex, type Sidecar } from './sidecar';

/** The item records in `bytes` (read at file offset `pos`) by id, the first of an id kept (as a full read does). */
export function itemsIn(bytes: Buffer, pos: number): Map<number, MemoryItem> {
  const found = new Map<number, MemoryItem>();
  const ignore = () => {};
  const item = (it: MemoryItem) => void (found.has(it.id) || found.set(it.id, it));
  parseInto(bytes.toString('utf8'), pos === 0 ? 1 : 2, true, { item, forget: ignore, pin: ignore, header: ignore, bad: ignore });
  return found;
}

/** The item record in `bytes` (read at file offset `pos`), checked to be item `id`. */
export function itemIn(bytes: Buffer, pos: number, id: number): MemoryItem {
  return checked(itemsIn(bytes, pos).get(id), id);
}

export function checked(found: MemoryItem | undefined, id: number): MemoryItem {
  if (found?.id !== id) throw new CorruptIndex(`item ${id} is not where the index says`);
  return found;
}

/** Section `cuid`: id → the uid a full read gives a hand-copied line's item (log/uid-copies.ts). */
export function givenUids(side: Sidecar): Map<number, string> {
  const raw = Buffer.from(side.range('cuid', 0, side.header.sections.cuid[1], 1)).toString('utf8');
  let pairs: unknown;
  try {
    pairs = JSON.parse(raw);
  } catch {
    throw new CorruptIndex('cuid');
  }
  if (!Array.isArray(pairs) || pairs.length !== side.header.copies) throw new CorruptIndex('cuid');
  return new Map(pairs as Array<[number, string]>);
}
