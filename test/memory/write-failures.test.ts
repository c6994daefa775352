/** A write that fails (a full disk, an I/O error) leaves memory.jsonl byte-identical and says so in one line naming the file. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { failWritesContaining } from '../helpers/fail-writes';
import { tmpDir } from '../helpers/tmp';

const BIG = `MARK ${'eleven kilobytes of text '.repeat(450)}`; // ~11 KB, as in the report

async function addFailing(store: MemoryStore, okBytes: number, code = 'ENOSPC'): Promise<unknown> {
  const undo = failWritesContaining('MARK', okBytes, code);
  try {
    await store.add('fact', BIG);
  } catch (err) {
    return err;
  } finally {
    undo();
  }
  throw new Error('the add should have failed');
}

describe('memory store: a failed append', () => {
  it('leaves the file byte-identical after a short write and ENOSPC, and the store works afterwards', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    await store.add('fact', 'before');
    const before = readFileSync(path);
    const err = await addFailing(store, 4096);
    expect((err as Error).message).toBe(`cannot write ${path}: no space left on device — nothing was written`);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(store.items().map((i) => i.content)).toEqual(['before']);
    // the failed id was never written, so it is handed out again
    expect((await store.add('fact', 'after')).id).toBe(2);
    expect(MemoryStore.open(path).skipped).toEqual([]);
  });

  it('an I/O error before any byte is written: the same, in words', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"hand-made, no newline"}');
    const before = readFileSync(path);
    const store = MemoryStore.open(path);
    const err = await addFailing(store, 0, 'EIO');
    expect((err as Error).message).toBe(`cannot write ${path}: input/output error — nothing was written`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a file the failed write would have created is not left behind', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    await addFailing(store, 100);
    expect(existsSync(path)).toBe(false);
  });
});
