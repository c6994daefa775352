/** The memory index with real processes: two writers appending through it while a third reads. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { indexBackground } from '../../src/memory/index/background';
import { MemoryStore } from '../../src/memory/store';
import { selectBackground } from '../../src/memory/background/select';
import { startWorker } from '../helpers/processes';
import { tmpDir } from '../helpers/tmp';

describe('memory index across processes', () => {
  it('two processes adding through the index while a third reads: distinct ids, nothing lost, reads agree with the file', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const seed = MemoryStore.open(path);
    for (let i = 0; i < 50; i++) await seed.add('fact', `seed ${i}`);
    new MemoryIndex(path).refresh(); // an index exists: the writers extend it through its tail

    const N = 60;
    const reader = startWorker('memory-index', { mode: 'read', path, until: 50 + 2 * N });
    const writers = ['a', 'b'].map((tag) => startWorker('memory-index', { mode: 'add', path, count: N, tag }));
    const results = await Promise.all([...writers, reader].map((w) => w.exited));
    for (const [i, r] of results.entries()) expect(r, [...writers, reader][i]!.lines.join('\n')).toEqual({ code: 0, signal: null });

    const ids = writers.flatMap((w) => w.lines.filter((l) => l.startsWith('ok ')).map((l) => Number(l.slice(3))));
    expect(ids).toHaveLength(2 * N);
    expect(new Set(ids).size).toBe(2 * N);
    expect(reader.lines.filter((l) => l.startsWith('bad'))).toEqual([]);
    // The reader saw the count grow and never shrink.
    const seen = reader.lines.filter((l) => l.startsWith('n ')).map((l) => Number(l.split(' ')[1]));
    expect(seen.at(-1)).toBe(50 + 2 * N);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    const store = MemoryStore.open(path);
    expect(store.skipped).toEqual([]);
    const ix = new MemoryIndex(path);
    ix.refresh();
    const full = selectBackground(store.items(), { maxChars: 500, isPinned: () => false });
    expect(indexBackground(ix, 500, '/').items).toEqual(full.items);
    expect(ix.counts().maxId).toBe(store.maxId);
  });
});
