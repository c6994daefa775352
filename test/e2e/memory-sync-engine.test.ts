/** Memory sync with real git: union by uid, forgets and pins by target uid, nothing sent twice. */
import { describe, expect, it } from 'vitest';
import { syncNet } from '../helpers/sync-machines';

describe('memory sync between machines', () => {
  it('takes each machine its items to the others, once, with local ids and where they came from', async () => {
    const net = syncNet();
    const a = net.machine('laptop');
    const b = net.machine('server');
    await a.store().add('fact', 'alpha from a');
    await a.store().add('pref', 'beta from a');
    await b.store().add('fact', 'gamma from b');
    expect(await a.sync()).toMatchObject({ sent: 2, received: 0 });
    expect(await b.sync()).toMatchObject({ sent: 1, received: 2, machines: 1 });
    expect(await a.sync()).toMatchObject({ sent: 0, received: 1, machines: 1 });
    expect(a.texts()).toEqual(['alpha from a', 'beta from a', 'gamma from b']);
    expect(b.texts()).toEqual(a.texts());
    // Received items get local ids of their own and say which machine sent them.
    const got = b
      .store()
      .items()
      .find((i) => i.content === 'alpha from a') as { id: number; via?: string; uid?: string };
    const orig = a
      .store()
      .items()
      .find((i) => i.content === 'alpha from a')!;
    expect(got.uid).toBe(orig.uid);
    expect(got.via).toBe('laptop');
    // Nothing more to do: a second round sends and receives nothing, and adds no line.
    const before = [a.file(), b.file()];
    expect(await a.sync()).toMatchObject({ sent: 0, received: 0 });
    expect(await b.sync()).toMatchObject({ sent: 0, received: 0 });
    expect([a.file(), b.file()]).toEqual(before);
  });

  it('a forget reaches the others by uid, and an item forgotten first and received later stays out', async () => {
    const net = syncNet();
    const [a, b, c] = ['a', 'b', 'c'].map((n) => net.machine(n));
    const x = await a!.store().add('fact', 'the staging db is pg-14');
    await a!.store().add('fact', 'keep me');
    await a!.sync();
    await b!.sync();
    await a!.store().forget(x.id);
    await a!.sync();
    // c has never seen the item: its first sync reads the item and its forget in one go.
    await c!.sync();
    await b!.sync();
    for (const m of [a!, b!, c!]) expect(m.texts()).toEqual(['keep me']);
    expect(await b!.sync()).toMatchObject({ received: 0, forgotten: 0 });
  });

  it('a pin made on one machine reaches the others; of two pin decisions the later one wins everywhere', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    const x = await a.store().add('fact', 'deploys go through the release branch');
    await a.sync();
    await b.sync();
    const bx = b.store().items()[0]!;
    await b.store().setPinned(bx.id, true);
    await b.sync();
    await a.sync();
    expect(a.store().isPinned(a.store().get(x.id)!)).toBe(true);
    // Unpinned on a later: after both sync, it is unpinned on both.
    await a.store().setPinned(x.id, false);
    await a.sync();
    await b.sync();
    await a.sync();
    expect(a.store().isPinned(a.store().get(x.id)!)).toBe(false);
    const bs = b.store();
    expect(bs.isPinned(bs.get(bx.id)!)).toBe(false);
  });

  it('an added-then-forgotten item never leaves, and private, secret and path-only items stay on the machine', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const s = a.store();
    const gone = await s.add('fact', 'typo: my bank pin is 4242');
    await s.forget(gone.id);
    await s.add('fact', 'the reorg is in March');
    const priv = await s.add('fact', 'placeholder');
    // A hand-written private item and one holding a secret (as a hand edit could leave).
    const { appendFileSync } = await import('node:fs');
    appendFileSync(
      a.memoryPath,
      JSON.stringify({ id: 90, ts: new Date().toISOString(), kind: 'fact', content: 'private: the office door code', private: true }) +
        '\n' +
        JSON.stringify({
          id: 91,
          ts: new Date().toISOString(),
          kind: 'fact',
          content: 'deploy key ghp_1234567890abcdefghijABCDEFGHIJ123456',
        }) +
        '\n' +
        JSON.stringify({
          id: 92,
          ts: new Date().toISOString(),
          kind: 'fact',
          content: 'only in /nowhere/at/all',
          scope: '/nowhere/at/all',
        }) +
        '\n',
    );
    const r = await a.sync();
    expect(r.held).toEqual({ private: 1, secret: 1, local: 1 });
    expect(r.sent).toBe(2); // the reorg date and the placeholder
    const history = net.history();
    expect(history).toContain('placeholder');
    for (const never of ['4242', 'door code', 'ghp_1234567890', '/nowhere/at/all']) expect(history).not.toContain(never);
    expect(priv.id).toBeGreaterThan(0);
  });
});

describe('memory sync: concurrent edits', () => {
  it('the same item edited on two machines: both versions survive on both, as a conflict for review', async () => {
    const { findConflicts } = await import('../../src/memory/review/conflicts');
    const net = syncNet();
    const a = net.machine('laptop');
    const b = net.machine('server');
    const x = await a.store().add('fact', 'the staging db is on pg 14');
    await a.sync();
    await b.sync();
    const bx = b.store().items()[0]!;
    await a.store().edit(x.id, 'the staging db is on pg 15');
    await b.store().edit(bx.id, 'the staging db is on pg 16');
    expect(await a.sync()).toMatchObject({ sent: 2, conflicts: 0 });
    expect(await b.sync()).toMatchObject({ sent: 2, received: 2, conflicts: 1 });
    expect(await a.sync()).toMatchObject({ received: 2, conflicts: 1 });
    for (const m of [a, b]) {
      expect(m.texts()).toEqual(['the staging db is on pg 15', 'the staging db is on pg 16']);
      const [c] = findConflicts(m.store());
      expect(c?.old?.content).toBe('the staging db is on pg 14');
      expect(c?.rivals.map((r) => r.content).sort()).toEqual(['the staging db is on pg 15', 'the staging db is on pg 16']);
    }
    // Resolved on one machine (keep 15: forget 16), the conflict is gone on the other after a sync.
    const sa = a.store();
    const sixteen = sa.items().find((i) => i.content.endsWith('16'))!;
    await sa.forget(sixteen.id);
    await a.sync();
    await b.sync();
    expect(b.texts()).toEqual(['the staging db is on pg 15']);
    expect(findConflicts(b.store())).toEqual([]);
  });
});
