import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { startWorker } from '../helpers/processes';
import { tmpDir } from '../helpers/tmp';

describe('two or more processes writing one memory.jsonl', () => {
  it('8 processes x 200 adds give 1600 distinct ids, every line parses, nothing lost', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const workers = Array.from({ length: 8 }, (_, w) =>
      startWorker('memory-writer', { mode: 'add', path, count: 200, tag: `w${w}`, waitMs: 30_000 }),
    );
    const results = await Promise.all(workers.map((w) => w.exited));
    for (const [i, r] of results.entries())
      expect(r, `worker ${i}: ${workers[i]!.lines.filter((l) => l.startsWith('err')).join('; ')}`).toEqual({ code: 0, signal: null });

    const acknowledged = workers.flatMap((w) => w.lines.filter((l) => l.startsWith('ok ')).map((l) => Number(l.slice(3))));
    expect(acknowledged).toHaveLength(1600);
    expect(new Set(acknowledged).size).toBe(1600);

    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe(''); // ends with a newline
    for (const l of lines) expect(() => JSON.parse(l) as unknown).not.toThrow();
    expect(lines).toHaveLength(1601); // header + 1600 items

    const m = MemoryStore.open(path).snapshot();
    expect(m.skipped).toEqual([]);
    expect(m.items).toHaveLength(1600);
    expect(new Set(m.items.map((i) => i.id))).toEqual(new Set(acknowledged));
    // each worker's own items are all there, in its own order
    for (let w = 0; w < 8; w++) {
      const mine = m.items.filter((i) => i.content.startsWith(`w${w}-`)).sort((a, b) => a.id - b.id);
      expect(mine.map((i) => i.content)).toEqual(Array.from({ length: 200 }, (_, i) => `w${w}-${i}`));
    }
  });
});
