import { describe, expect, it } from 'vitest';
import { syncNote } from '../../src/frontends/auto-sync';

describe('the background sync on the status line', () => {
  it('says what was sent and received, and conflicts', () => {
    expect(syncNote(0, '{"sent":3,"received":12,"conflicts":0}\n', '')).toEqual({ text: 'synced ↑3 ↓12', received: true });
    expect(syncNote(0, '{"sent":0,"received":0,"conflicts":0}\n', '')).toEqual({ text: 'synced ↑0 ↓0', received: false });
    expect(syncNote(0, '{"sent":1,"received":2,"conflicts":1}', '')).toEqual({ text: 'synced ↑1 ↓2, 1 conflict', received: true });
  });

  it('says how many received records wait in review', () => {
    const out =
      '{"sent":0,"received":0,"conflicts":0,"waiting":[{"name":"evil","why":"forgets","n":2},{"name":"x","why":"flood","n":300}]}';
    expect(syncNote(0, out, '')).toEqual({ text: 'synced ↑0 ↓0, 302 wait in :memory review', received: false });
  });

  it('a refused mass forget points at :memory sync', () => {
    expect(syncNote(1, '{"sent":0,"received":0,"conflicts":0,"refused":{"forgets":40,"active":40}}', 'aish: sync sent 0, but …')).toEqual({
      text: 'sync held back 40 forgets — run :memory sync',
      received: false,
    });
  });

  it('a failure shows what git said, without the program name', () => {
    expect(syncNote(1, '', 'aish: memory sync: cannot fetch /srv/mem.git: does not appear to be a git repository\n').text).toBe(
      'sync failed: cannot fetch /srv/mem.git: does not appear to be a git repository',
    );
    expect(syncNote(null, '', '').text).toBe('sync failed: exit signal');
  });
});
