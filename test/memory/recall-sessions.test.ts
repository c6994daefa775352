/**
 * Several sessions: the best hit of each session goes before a second hit of any one, so a question
 * whose evidence is spread over sessions is not filled by the top of one.
 */
import { describe, expect, it } from 'vitest';
import { sessionOf, spreadSessions } from '../../src/memory/recall-sessions';
import type { MemoryItem } from '../../src/memory/types';

const item = (id: number, ts: string, source?: string): MemoryItem => ({
  id,
  ts,
  kind: 'context',
  content: `turn ${id}`,
  ...(source !== undefined && { source }),
});

describe('several sessions', () => {
  it('puts the best of each session first, then the rest in rank order', () => {
    const ranked = [
      item(1, '2023-05-08T10:00:00Z'),
      item(2, '2023-05-08T10:01:00Z'),
      item(3, '2023-05-08T10:02:00Z'),
      item(4, '2023-06-26T09:00:00Z'),
      item(5, '2023-09-29T18:00:00Z'),
      item(6, '2023-06-26T09:05:00Z'),
    ];
    expect(spreadSessions(ranked, (r) => r).map((r) => r.id)).toEqual([1, 4, 5, 2, 3, 6]);
  });

  it('knows a session by its source, and by its day when it has none', () => {
    expect(sessionOf(item(1, '2023-05-08T10:00:00Z', 'a'))).not.toBe(sessionOf(item(2, '2023-05-08T10:00:00Z', 'b')));
    expect(sessionOf(item(1, '2023-05-08T10:00:00Z'))).toBe(sessionOf(item(2, '2023-05-08T23:00:00Z')));
    const bySource = [item(1, '2023-05-08T10:00:00Z', 'a'), item(2, '2023-05-08T10:01:00Z', 'a'), item(3, '2023-05-08T10:02:00Z', 'b')];
    expect(spreadSessions(bySource, (r) => r).map((r) => r.id)).toEqual([1, 3, 2]);
  });
});
