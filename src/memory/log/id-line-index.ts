/** id -> line index for MemoryState. */
/**
 * id -> line. ids are dense (1, 2, 3, … as aish hands them out), so a growable Int32Array indexed by
 * id does the job without a hash insertion per record; ids far beyond the dense range (hand edits)
 * go to a Map.
 */
export class IdLineIndex {
  private dense = new Int32Array(1024);
  private readonly sparse = new Map<number, number>();

  get(id: number): number | undefined {
    if (id < this.dense.length) {
      const v = this.dense[id]!;
      return v === 0 ? undefined : v;
    }
    return this.sparse.get(id);
  }

  set(id: number, line: number): void {
    if (id >= this.dense.length && id < Math.max(1 << 20, this.dense.length * 4) && line < 2 ** 31) {
      let size = this.dense.length;
      while (size <= id) size *= 2;
      const next = new Int32Array(size);
      next.set(this.dense);
      this.dense = next;
    }
    if (id < this.dense.length && line < 2 ** 31) this.dense[id] = line;
    else this.sparse.set(id, line);
  }

  delete(id: number): void {
    if (id < this.dense.length) this.dense[id] = 0;
    else this.sparse.delete(id);
  }
}
