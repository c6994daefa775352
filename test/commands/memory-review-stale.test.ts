/** `:memory review --stale`'s walk (commands/memory-review-stale.ts) on a real store: keep, edit, forget, skip, quit. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewStale } from '../../src/commands/memory-review-stale';
import type { ReviewIO as StaleIO } from '../../src/commands/memory-review-io';
import { noteRecalled } from '../../src/memory/review/recall-use';
import { MemoryStore } from '../../src/memory/store';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

const NOW = new Date('2026-12-06T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

function scripted(answers: Array<string | null>) {
  const asked: Array<[string, { initial?: string } | undefined]> = [];
  const printed: string[] = [];
  const io: StaleIO = {
    ask: async (q, o) => {
      asked.push([q, o]);
      return answers.length ? answers.shift()! : null;
    },
    print: (l) => printed.push(l),
  };
  return { io, asked, printed };
}

/** A store whose file holds `items` as written by hand (old times), its clock at NOW. */
function storeWith(items: MemoryItem[]) {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, items.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
  return { path, store: MemoryStore.open(path, { now: () => NOW }) };
}
const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('reviewStale', () => {
  it('y keeps the text as an edit stamped confirmed (no longer stale), n forgets, e edits, s skips; oldest first', async () => {
    const { path, store } = storeWith([
      { id: 1, ts: ago(400), kind: 'fact', content: 'the staging host is zebra', tags: ['infra'], scope: '/home/u/shop' },
      { id: 2, ts: ago(300), kind: 'pref', content: 'answer in French' },
      { id: 3, ts: ago(200), kind: 'fact', content: 'the cat is named Miso' },
      { id: 4, ts: ago(150), kind: 'fact', content: 'backups run nightly' },
      { id: 5, ts: ago(10), kind: 'fact', content: 'a fresh note' },
    ]);
    const { io, asked, printed } = scripted(['y', 'n', 'e', 'the cat is named Miso and the dog Pixel', 's']);
    const r = await reviewStale(store, io, () => NOW);
    expect(r).toMatchObject({ kept: 1, edited: 1, forgot: 1, skipped: 1, wrote: true });
    expect(r.summary).toBe('[aish] stale review: kept 1, edited 1, forgot 1, skipped 1; 1 still stale');
    expect(printed).toEqual([
      '[stale] 1/4 #1 (fact) the staging host is zebra  [project /home/u/shop]  — 1 year old, never recalled',
      'kept as #6, confirmed (was #1)',
      '[stale] 2/4 #2 (pref) answer in French  — 10 months old, never recalled',
      'forgot #2',
      '[stale] 3/4 #3 (fact) the cat is named Miso  — 6 months old, never recalled',
      'replaced 3 with 9 (fact)',
      '[stale] 4/4 #4 (fact) backups run nightly  — 5 months old, never recalled',
      'skipped',
    ]);
    expect(asked[3]).toEqual(['edit: ', { initial: 'the cat is named Miso' }]);
    const recs = records(path);
    // Keep: one append holding the item again (its tags and scope carried, `replaces` the old uid) and the old one's tombstone.
    expect(recs[5]).toMatchObject({
      id: 6,
      ts: NOW.toISOString(),
      kind: 'fact',
      content: 'the staging host is zebra',
      tags: ['infra'],
      scope: '/home/u/shop',
      confirmed: NOW.toISOString(),
    });
    expect(recs[6]).toMatchObject({ id: 7, kind: 'forget', target: 1 });
    expect(recs[7]).toMatchObject({ id: 8, kind: 'forget', target: 2 });
    expect(recs[9]).toMatchObject({ id: 10, kind: 'forget', target: 3 });
    expect(store.items().map((i) => [i.id, i.content])).toEqual([
      [9, 'the cat is named Miso and the dog Pixel'],
      [6, 'the staging host is zebra'],
      [5, 'a fresh note'],
      [4, 'backups run nightly'],
    ]);
    // Again: only the skipped one is left; the confirmed one is not stale (nor for 90 days).
    const again = scripted(['q']);
    expect((await reviewStale(store, again.io, () => NOW)).summary).toBe(
      '[aish] stale review: kept 0, edited 0, forgot 0, skipped 0; 1 still stale',
    );
    expect(again.printed).toEqual(['[stale] 1/1 #4 (fact) backups run nightly  — 5 months old, never recalled']);
  });

  it("y keeps where the item came from (an edit of the text would make it the user's own)", async () => {
    const { store } = storeWith([
      { id: 1, ts: ago(300), kind: 'fact', content: 'the staging host is zebra', from: 'import:claude:CLAUDE.md' },
      { id: 2, ts: ago(300), kind: 'fact', content: 'the office wifi is hive', via: 'laptop' },
    ]);
    await reviewStale(store, scripted(['y', 'y']).io, () => NOW);
    expect(store.items().map((i) => [i.content, i.from, i.confirmed])).toEqual([
      ['the office wifi is hive', 'machine:laptop', NOW.toISOString()],
      ['the staging host is zebra', 'import:claude:CLAUDE.md', NOW.toISOString()],
    ]);
  });

  it('recalled lately: not walked; updated by a newer item: walked with the newer one shown, even if recalled', async () => {
    const { path, store } = storeWith([
      { id: 1, ts: ago(300), kind: 'fact', content: 'Uses Node 18 in CI' },
      { id: 2, ts: ago(300), kind: 'fact', content: 'the cat is named Miso' },
      { id: 3, ts: ago(20), kind: 'fact', content: 'Uses Node 20 in CI' },
    ]);
    noteRecalled(
      path,
      store.items().map((item) => ({ item })),
      new Date(ago(5)),
    );
    await new Promise((r) => setImmediate(r));
    const { io, printed } = scripted(['n']);
    const r = await reviewStale(store, io, () => NOW);
    expect(printed).toEqual([
      '[stale] 1/1 #1 (fact) Uses Node 18 in CI  — 10 months old, updated by #3',
      '  newer #3 (fact): Uses Node 20 in CI',
      'forgot #1',
    ]);
    expect(r.summary).toBe('[aish] stale review: kept 0, edited 0, forgot 1, skipped 0; 0 still stale');
  });

  it('an edit left as it was keeps it; an empty edit skips; end of input stops; an item gone meanwhile writes nothing', async () => {
    const { path, store } = storeWith([
      { id: 1, ts: ago(300), kind: 'fact', content: 'one old note' },
      { id: 2, ts: ago(200), kind: 'fact', content: 'two old note' },
      { id: 3, ts: ago(100), kind: 'fact', content: 'three old note' },
    ]);
    const { io, printed } = scripted(['e', '  one old note ', 'e', '', null]);
    const r = await reviewStale(store, io, () => NOW);
    expect(printed).toContain('kept as #4, confirmed (was #1)');
    expect(r).toMatchObject({
      kept: 1,
      skipped: 1,
      summary: '[aish] stale review: kept 0, edited 0, forgot 0, skipped 1; 2 still stale'.replace('kept 0', 'kept 1'),
    });
    // Another aish forgets #2 while this one asks about it.
    const other = MemoryStore.open(path);
    const { io: io2, printed: p2 } = scripted(['n']);
    const walk = reviewStale(
      store,
      {
        ask: async (q, o) => {
          await other.forget(2);
          return io2.ask(q, o);
        },
        print: (l) => io2.print(l),
      },
      () => NOW,
    );
    const r2 = await walk;
    expect(p2).toContain('#2 was changed or forgotten meanwhile — nothing written');
    expect(r2.wrote).toBe(false);
  });
});
