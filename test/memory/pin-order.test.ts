/**
 * The order of the pinned in [background] is the order they were pinned, most recent first — from
 * the full read and from the index alike, and kept through compaction (which folds pin records
 * into the items) and through an edit of a pinned item.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadIdentity } from '../../src/memory/log/identity';
import { indexBackground } from '../../src/memory/index/background';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { pinTime } from '../../src/memory/log/pin-time';
import { selectBackground } from '../../src/memory/background/select';
import { MemoryStore } from '../../src/memory/store';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

/**
 * 50 characters: with the header, two [background] lines fit in 300 characters, not three — as
 * each line ends with its date and age at NOW, ` (2025-01-01, 1 year old)`. Without the age three
 * would fit: the index stores lengths without it and must add it.
 */
const text = (id: number) => `item ${id} `.padEnd(50, 'x');
const NOW = Date.parse('2026-08-01T00:00:00Z');
const item = (id: number, day: string, o: object = {}) => ({ id, ts: `2025-${day}T10:00:00Z`, kind: 'fact', content: text(id), ...o });
const pin = (id: number, day: string, target: number) => ({ id, ts: `2025-${day}T10:00:00Z`, kind: 'pin', target });

function write(records: object[]): string {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
  return path;
}

/** [background] ids and the pinned left out, from a full read and from the index (which must agree). */
function background(path: string): { items: number[]; leftOut: number[] } {
  const store = MemoryStore.open(path);
  const pins = store.committed().state.pinsByTarget();
  const isPinned = (it: MemoryItem) => store.isPinned(it);
  const full = selectBackground(store.items(), { maxChars: 300, now: NOW, isPinned, pinTime: (it) => pinTime(pins, it) });
  const ix = new MemoryIndex(path);
  ix.refresh();
  const fromIndex = indexBackground(ix, 300, '/', NOW);
  const out = { items: fromIndex.items.map((i) => i.id), leftOut: fromIndex.pinnedLeftOut };
  expect(out).toEqual({ items: full.items.map((i) => i.id), leftOut: full.pinnedLeftOut.map((i) => i.id) });
  ix.close();
  store.close();
  return out;
}

beforeAll(() => loadIdentity());

describe('the most recently pinned first', () => {
  // #1 is the oldest item, pinned last; #4 carries `pinned: true` from when it was written.
  const records = [
    item(1, '01-01'),
    item(2, '02-01'),
    item(3, '03-01'),
    item(4, '04-01', { pinned: true }),
    pin(5, '05-01', 2),
    pin(6, '06-01', 3),
    pin(7, '07-01', 1),
  ];

  it('by the pin record, or the item’s own time when it carries pinned: true', () => {
    expect(background(write(records))).toEqual({ items: [1, 3], leftOut: [2, 4] });
    // #2 pinned in January, before #4 was written (pinned) in April: #4 is now the more recent pin.
    const early = records.map((r) => (r.id === 5 ? pin(5, '01-15', 2) : r));
    expect(background(write(early))).toEqual({ items: [1, 3], leftOut: [4, 2] });
  });

  it('compaction folds pin records into the items and keeps their time (pinned_at): the order is unchanged', async () => {
    const path = write(records);
    const store = MemoryStore.open(path);
    await store.compact();
    store.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('"kind":"pin"');
    expect(text).toContain('"pinned":true,"pinned_at":"2025-07-01T10:00:00.000Z"');
    expect(background(path)).toEqual({ items: [1, 3], leftOut: [2, 4] });
  });

  it('an edit of a pinned item keeps its place among the pinned', async () => {
    const path = write(records);
    const store = MemoryStore.open(path, { now: () => new Date('2025-12-01T00:00:00Z') });
    const r = await store.edit(2, text(2).replace('item', 'ITEM'));
    store.close();
    expect(r.ok && r.item).toMatchObject({ pinned: true, pinned_at: '2025-05-01T10:00:00.000Z' });
    const id = r.ok ? r.item.id : 0;
    // Edited in December, pinned in May: still behind #1 and #3.
    expect(background(path)).toEqual({ items: [1, 3], leftOut: [id, 4] });
  });
});
