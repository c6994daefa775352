/** Where memory.jsonl stands for a writer that reads it through the index (the fast add, sync's apply): the index caught up, its highest id and newest clock stamp. */
import { laterStamp } from '../log/hlc';
import type { LogPosition } from '../log/write';
import type { MemoryIndex } from './memory-index';

export function caughtUp(ix: MemoryIndex): LogPosition {
  ix.refresh();
  return { maxId: ix.counts().maxId, maxHlc: laterStamp(ix.header?.maxHlc, ix.tail?.state.maxHlc) };
}
