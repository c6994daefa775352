/**
 * Guards over what other writers send (real git, a bare repository, several data directories):
 * forgets spread over many syncs, a forged edit of an item written here, a flood of items.
 */
import { describe, expect, it } from 'vitest';
import { syncNet } from '../helpers/sync-machines';
import { reportLine } from '../../src/memory/sync/report';

describe('memory sync guards', () => {
  it('a writer forgetting 2 items written here per push for 16 pushes: past the threshold the rest wait in review, each sync saying so', async () => {
    const net = syncNet();
    const a = net.machine('home');
    const evil = net.machine('evil');
    const own = Array.from({ length: 32 }, (_, i) => `note ${i} written here`);
    for (const t of own) await a.store().add('fact', t);
    await a.sync();
    await evil.sync();
    const lines: string[] = [];
    for (let push = 0; push < 16; push++) {
      const s = evil.store();
      const mine = s.items().filter((it) => it.content.endsWith('written here'));
      await s.forgetMany(mine.slice(0, 2).map((it) => it.id));
      await evil.sync();
      const r = await a.sync();
      lines.push(reportLine(r));
      expect(r.refused).toBeUndefined();
    }
    // The first two fit the 10 % rule and applied; every forget after that waits.
    const lost = own.filter((t) => !a.texts().includes(t));
    expect(lost.length).toBeLessThanOrEqual(2);
    const waits = lines.slice(1).map((l) => /(\d+) forgets from evil wait in :memory review/.exec(l)?.[1]);
    expect(waits).toEqual(Array.from({ length: 15 }, () => '2'));
    expect(lines[0]).not.toContain('wait');
  });
});
