import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { startWorker } from '../helpers/processes';
import { tmpDir } from '../helpers/tmp';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a writer killed with SIGKILL mid-append', () => {
  it('keeps every acknowledged id, loads, and the next add starts on a fresh line (24 rounds)', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const acknowledged = new Set<number>();
    let rng = 7;
    const rnd = () => (rng = (rng * 1103515245 + 12345) >>> 0) / 2 ** 32;

    for (let round = 0; round < 24; round++) {
      const w = startWorker('memory-writer', { mode: 'loop', path, tag: `r${round}` });
      await w.waitFor((l) => l.startsWith('ok '));
      await sleep(5 + rnd() * 120);
      w.child.kill('SIGKILL');
      const exit = await w.exited;
      expect(exit.signal).toBe('SIGKILL');
      for (const l of w.lines) if (l.startsWith('ok ')) acknowledged.add(Number(l.slice(3)));

      // the file loads after every crash, and holds everything the writer said it wrote
      const m = loadMemory(path);
      const present = new Set(m.items.map((i) => i.id));
      for (const id of acknowledged) expect(present.has(id), `id ${id} acknowledged but missing after round ${round}`).toBe(true);
      // anything skipped is a torn write: an unfinished line, never a corrupted complete one
      for (const s of m.skipped) expect(s.reason).toMatch(/incomplete last line|not valid JSON/);
    }
    expect(acknowledged.size).toBeGreaterThan(24);

    const store = MemoryStore.open(path);
    const next = await store.add('fact', 'after the crashes');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(JSON.parse(lines[lines.length - 1]!)).toMatchObject({ id: next.id, content: 'after the crashes' });
    expect(next.id).toBeGreaterThan(Math.max(...acknowledged));
    const final = loadMemory(path);
    expect(final.items.map((i) => i.id)).toContain(next.id);
    // torn lines are the only possible casualties, one per round at most
    expect(final.skipped.length).toBeLessThanOrEqual(24);
  });
});
