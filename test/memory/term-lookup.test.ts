/**
 * The index's terms are remembered per index file: a word asked for before memory.jsonl was
 * rewritten (and its index rebuilt) is looked up afresh in the new index, by the same reader.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { IndexSearch } from '../../src/memory/index/search';
import { tmpDir } from '../helpers/tmp';

const line = (id: number, content: string) => JSON.stringify({ id, ts: '2026-01-02T00:00:00Z', kind: 'fact', content });

describe('term lookup', () => {
  it('a rebuilt index answers for words the old one lacked, and no longer for words it dropped', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, [line(1, 'the build runs on the large queue'), line(2, 'tabs over spaces')].join('\n') + '\n');
    const ix = new MemoryIndex(path);
    const ask = (text: string) =>
      ix.read((x) => new IndexSearch(x).search([{ text, weight: 1 }], { now: Date.now(), limit: 5 }).map((h) => h.id));
    expect(ask('zebra')).toEqual([]);
    expect(ask('queue')).toEqual([1]);
    writeFileSync(path, [line(3, 'a zebra crossing near the office'), line(4, 'coffee at ten')].join('\n') + '\n');
    expect(ask('zebra')).toEqual([3]);
    expect(ask('queue')).toEqual([]);
    expect(ix.builds).toBe(2);
    ix.close();
  });
});
