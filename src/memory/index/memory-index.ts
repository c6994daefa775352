/**
 * memory.jsonl through its index (reader.ts), built from a full read whenever the index file is
 * missing, damaged or out of step with the file: what start-up, recall, search, plan and `aish
 * memory add` use.
 */
import { MemoryStore } from '../store';
import { assemble, buildIndex } from './build';
import { IndexReader } from './reader';
import { CorruptIndex, Sidecar, writeSidecar } from './sidecar';
import { readTail } from './tail';

export class MemoryIndex extends IndexReader {
  /** How many times the index was built by this process (tests and benchmarks read it). */
  builds = 0;

  /** Bring the index in step with memory.jsonl: the index file as it is, a new tail, or (`build`) a rebuild; false: none. */
  override refresh(build = true): boolean {
    return this.againIfDamaged(() => {
      if (this.inStep()) return true;
      if (!build) return this.drop();
      this.rebuild();
      return true;
    });
  }

  /** Run `fn` over the index in step with the file; an index found damaged on the way is rebuilt and `fn` run again. */
  read<T>(fn: (ix: MemoryIndex) => T): T {
    this.refresh();
    try {
      return fn(this);
    } catch (err) {
      if (!(err instanceof CorruptIndex)) throw err;
      this.rebuild();
      return fn(this);
    }
  }

  /** A full read of memory.jsonl, the index written beside it (and used from memory when it cannot be). */
  rebuild(): void {
    this.drop();
    const started = Date.now();
    const store = MemoryStore.open(this.path);
    const built = buildIndex(store, started);
    this.builds++;
    // Read back by offset like any other index; kept in memory only when it cannot be written.
    this.side = (writeSidecar(this.path, built) && Sidecar.open(this.path)) || Sidecar.fromBytes(built.header, assemble(built));
    const r = readTail(this.path, this.side, (id) => this.slotOf(id));
    this.tailValue = r.kind === 'tail' ? r.tail : null;
  }
}
