/**
 * Every memory line the model receives ends with the day its item was written, and an item over
 * 90 days old with its age too; `:memory list` shows that age as the plan does. The index stores
 * line lengths with the date and without the age (which depends on when it is read): what it
 * chooses equals a full read at any clock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ageChars, backgroundLine, itemTime, recallBlock, recallLine, whenTag } from '../../src/memory/background/blocks';
import { selectBackground } from '../../src/memory/background/select';
import { formatItemLines } from '../../src/memory/format';
import { indexBackground } from '../../src/memory/index/background';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { MemoryStore } from '../../src/memory/store';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

const NOW = Date.parse('2026-12-06T09:00:00Z');
const item = (id: number, ts: string, content = `deploys go out on fridays ${id}`): MemoryItem => ({ id, ts, kind: 'fact', content });

describe('dated memory lines', () => {
  it('end with the UTC day, and an old item with its age', () => {
    expect(recallLine(item(12, '2026-11-30T23:30:00Z'), NOW)).toBe('- #12 (fact) deploys go out on fridays 12 (2026-11-30)');
    expect(backgroundLine(item(3, '2023-05-08T10:00:00Z'), NOW)).toBe('- (fact) deploys go out on fridays 3 (2023-05-08, 3 years old)');
    expect(recallLine(item(4, '2026-07-01T00:00:00Z'), NOW)).toBe('- #4 (fact) deploys go out on fridays 4 (2026-07-01, 5 months old)');
    // An unreadable time says nothing rather than a wrong date.
    expect(recallLine(item(5, 'not a time'), NOW)).toBe('- #5 (fact) deploys go out on fridays 5');
    expect(recallBlock([item(6, '2026-12-01T00:00:00Z')], NOW).split('\n')[1]).toBe('- #6 (fact) deploys go out on fridays 6 (2026-12-01)');
  });

  it('the age is what a line adds to its length without it', () => {
    for (const ts of ['2026-12-01T00:00:00Z', '2026-09-07T00:00:00Z', '2026-07-01T00:00:00Z', '2021-01-01T00:00:00Z', 'bad']) {
      const t = itemTime(ts);
      expect(backgroundLine(item(1, ts), NOW).length - backgroundLine(item(1, ts), 0).length).toBe(ageChars(t, NOW));
      expect(whenTag(t, 0)).toBe(whenTag(t, NOW).replace(/, .*\)$/, ')'));
    }
  });

  it('the index chooses [background] as a full read does, old items carrying their age', () => {
    const path = join(tmpDir(), 'memory.jsonl');
    // Newest first in the walk: old items (with an age) and new ones mixed, budget tight.
    const items = Array.from({ length: 40 }, (_, i) =>
      item(i + 1, new Date(NOW - (i % 2 ? 400 : 3) * 86_400_000 - (40 - i) * 60_000).toISOString(), `note ${'x'.repeat(i % 7)} ${i}`),
    );
    writeFileSync(path, items.map((it) => JSON.stringify(it)).join('\n') + '\n', { mode: 0o600 });
    const store = MemoryStore.open(path);
    const ix = new MemoryIndex(path);
    ix.refresh();
    for (const budget of [300, 500, 777, 1200]) {
      const full = selectBackground(store.items(), { maxChars: budget, now: NOW, isPinned: () => false });
      expect(indexBackground(ix, budget, '/', NOW).items.map((i) => i.id)).toEqual(full.items.map((i) => i.id));
    }
    ix.close();
    store.close();
  });

  it(':memory list shows an old item’s age in words, a new one none', () => {
    const rows = formatItemLines([item(1, '2026-05-01T00:00:00Z'), item(2, '2026-12-01T00:00:00Z')], {
      now: new Date(NOW),
      injected: new Set(),
    });
    expect(rows[1]).toMatch(/deploys go out on fridays 1 {2}\(7 months old\)$/);
    expect(rows[2]).toMatch(/deploys go out on fridays 2$/);
  });
});
