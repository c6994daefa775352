import { describe, expect, it } from 'vitest';
import { syncNote } from '../../src/frontends/auto-sync';

const report = { sent: 0, received: 0, forgotten: 0, conflicts: 0 };

describe('the background sync on the status line', () => {
  it('says what was sent and received, and conflicts', () => {
    expect(syncNote({ ...report, sent: 3, received: 12 })).toEqual({ text: 'synced ↑3 ↓12', received: true });
    expect(syncNote(report)).toEqual({ text: 'synced ↑0 ↓0', received: false });
    expect(syncNote({ ...report, sent: 1, received: 2, conflicts: 1 })).toEqual({ text: 'synced ↑1 ↓2, 1 conflict', received: true });
  });

  it('an item forgotten by what arrived changes [background] too', () => {
    expect(syncNote({ ...report, forgotten: 2 }).received).toBe(true);
  });

  it('says how many received records wait in review', () => {
    const waiting = [
      { name: 'evil', why: 'forgets' as const, n: 2 },
      { name: 'x', why: 'flood' as const, n: 300 },
    ];
    expect(syncNote({ ...report, waiting })).toEqual({ text: 'synced ↑0 ↓0, 302 wait in :memory review', received: false });
  });

  it('a refused mass forget points at :memory sync', () => {
    expect(syncNote({ ...report, refused: { forgets: 40, active: 40 } })).toEqual({
      text: 'sync held back 40 forgets — run :memory sync',
      received: false,
    });
  });
});
