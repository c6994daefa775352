/** Age you can see: an item older than about three months says how old it is where it is planned or searched. */
import { describe, expect, it } from 'vitest';
import { formatSearch } from '../../src/memory/recall/format-plan';
import type { MemoryItem } from '../../src/memory/types';
import { staleAge } from '../../src/util/time';

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const item = (id: number, ts: string): MemoryItem => ({ id, ts, kind: 'fact', content: `deploys go out on fridays ${id}` });

describe('stale age', () => {
  it('is empty for a recent item and reads in months, then years', () => {
    const now = new Date('2026-12-06T00:00:00Z');
    expect(staleAge('2026-11-01T00:00:00Z', now)).toBe('');
    expect(staleAge('2026-07-01T00:00:00Z', now)).toBe('5 months old');
    expect(staleAge('2025-11-01T00:00:00Z', now)).toBe('1 year old');
    expect(staleAge('2023-05-08T00:00:00Z', now)).toBe('3 years old');
    expect(staleAge('not a time', now)).toBe('');
  });

  it('shows on an old item in search and plan lines, not on a new one', () => {
    const [old, fresh] = formatSearch(
      [
        { item: item(1, daysAgo(200)), score: 3, relevance: 3 },
        { item: item(2, daysAgo(3)), score: 2, relevance: 2 },
      ],
      () => false,
    );
    expect(old).toMatch(/#1 \(fact\) deploys go out on fridays 1 {2}\(6 months old\)$/);
    expect(fresh).not.toMatch(/old\)/);
  });
});
