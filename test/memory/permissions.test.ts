/** memory.jsonl is private: a hand-made file others can read is made 0600 on the first write, and the user is told once. */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { MemorySession } from '../../src/memory/session';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const mode = (p: string) => statSync(p).mode & 0o777;
const ITEM = '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"made by hand"}\n';

function handMade(fileMode: number): string {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, ITEM);
  chmodSync(path, fileMode);
  return path;
}

describe('memory.jsonl permissions', () => {
  it('a hand-made 0644 file is made 0600 on the first write, said once through the notice hook', async () => {
    const path = handMade(0o644);
    const seen: string[] = [];
    const store = MemoryStore.open(path, { notice: (t) => seen.push(t) });
    expect(mode(path)).toBe(0o644); // reading changes nothing
    await store.add('fact', 'one');
    expect(mode(path)).toBe(0o600);
    await store.add('fact', 'two');
    const line = 'memory.jsonl had mode 0644 (others could read it); made it private (0600)';
    expect(seen).toEqual([line]);
    expect(store.notices).toEqual([line]);
  });

  it('a 0600 file, or one aish creates, gets no notice', async () => {
    const path = handMade(0o600);
    const store = MemoryStore.open(path);
    await store.add('fact', 'one');
    const fresh = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
    await fresh.add('fact', 'one');
    expect([...store.notices, ...fresh.notices]).toEqual([]);
    expect(mode(fresh.path)).toBe(0o600);
  });

  it('compaction of a 0640 file writes it 0600 and says so', async () => {
    const path = handMade(0o640);
    const store = MemoryStore.open(path);
    await store.compact();
    expect(mode(path)).toBe(0o600);
    expect(store.notices).toEqual(['memory.jsonl had mode 0640 (others could read it); made it private (0600)']);
  });

  it('the memory session shows the notice as a warning', async () => {
    const path = handMade(0o644);
    const notices: string[] = [];
    const m = new MemorySession(DEFAULT_CONFIG, path, {}, { notice: (k, t) => notices.push(`${k}: ${t}`), changed: () => {} });
    await m.store().add('fact', 'x');
    expect(notices).toEqual(['warn: memory.jsonl had mode 0644 (others could read it); made it private (0600)']);
  });
});
