/**
 * A search given `only` (a turn's re-rank of the hits its message allowed) ranks just those items,
 * with the scores the full search gives them: document frequencies and lengths stay those of every
 * live item, in the index and in its tail.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { IndexSearch } from '../../src/memory/index/search';
import { tmpDir } from '../helpers/tmp';

const line = (id: number, content: string) =>
  JSON.stringify({ id, ts: `2026-01-${String((id % 28) + 1).padStart(2, '0')}T00:00:00Z`, kind: 'fact', content });

describe('search given only', () => {
  it('scores the allowed items as the full search does, and returns no other', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const texts = Array.from({ length: 40 }, (_, i) => `note ${i} ${i % 3 ? 'deploy friday' : 'coffee'} ${i % 5 ? '' : 'rust tests'}`);
    writeFileSync(path, texts.map((t, i) => line(i + 1, t)).join('\n') + '\n');
    const ix = new MemoryIndex(path);
    ix.read(() => null);
    appendFileSync(path, line(41, 'deploy rust on friday') + '\n' + line(42, 'coffee and rust') + '\n');
    const query = [
      { text: 'deploy rust', weight: 1 },
      { text: 'friday coffee tests', weight: 0.5 },
    ];
    const now = Date.parse('2026-02-01T00:00:00Z');
    const all = ix.read((x) => new IndexSearch(x).search(query, { now, limit: 100 }));
    const allowed = new Map([1, 6, 11, 41, 42].map((id) => [id, 0]));
    const some = ix.read((x) => new IndexSearch(x).search(query, { now, limit: 100, accept: (id) => allowed.has(id), only: allowed }));
    expect(some.length).toBeGreaterThan(2);
    expect(some).toEqual(all.filter((h) => allowed.has(h.id)));
    ix.close();
  });
});
