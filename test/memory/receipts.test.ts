import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReceipts, listReceipts, undoReceipt } from '../../src/memory/receipts/receipt-undo';
import { emptyDraft, noteAdded, ReceiptFile, receiptsPath, recordArrival } from '../../src/memory/receipts/receipts';
import { memoryService } from '../../src/memory/service';
import type { MemorySession } from '../../src/memory/session';
import { MemoryStore } from '../../src/memory/store';
import { TeamMemory } from '../../src/memory/team/team-memory';
import { DEFAULT_CONFIG, type AishConfig } from '../../src/config/types';
import { realPath } from '../../src/util/paths';
import { tmpDir } from '../helpers/tmp';

function setup() {
  const memoryPath = join(tmpDir('aish-receipts-'), 'memory.jsonl');
  return { memoryPath, store: MemoryStore.open(memoryPath), file: new ReceiptFile(memoryPath) };
}

describe('receipts', () => {
  it('a hand-edited line holding no object (null, a number, a list) is passed over; the others still list', async () => {
    const { memoryPath, store, file } = setup();
    const a = await store.add('fact', 'kept through a broken file');
    await recordArrival(memoryPath, 'agent:bot', { forgot: [a] }, () => true);
    writeFileSync(receiptsPath(memoryPath), 'null\n5\n[]\n{torn\n' + readFileSync(receiptsPath(memoryPath), 'utf8'), { mode: 0o600 });
    expect(listReceipts(file).map((r) => r.id)).toEqual(['r1']);
  });

  it('an agent that forgot a pinned item and replaced another: undo puts both back (pin, scope, tags) and forgets the new one; twice says already', async () => {
    const { memoryPath, store, file } = setup();
    const a = await store.add('pref', 'use pnpm', { tags: ['js'], scope: '/w/shop' });
    await store.setPinned(a.id, true);
    const b = await store.add('fact', 'the api lives on port 8080');
    const f = await store.forget(a.id);
    expect(f.ok).toBe(true);
    await recordArrival(memoryPath, 'agent:bot', { forgot: [a] }, () => true);
    const s = await store.supersede(b.id, 'fact', 'the api lives on port 9090');
    await recordArrival(memoryPath, 'agent:bot', { replaced: [[b, s.item]] }, () => false);

    const list = listReceipts(file);
    expect(list.map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(formatReceipts(list)[0]).toMatch(/^r2 {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}agent: bot — replaced 1 {2}"the api lives on port 9090"$/);
    expect(formatReceipts(list)[1]).toContain('agent: bot — forgot 1  "use pnpm"');

    expect(await undoReceipt(store, file, 'r1', () => new Date())).toBe('memory: undid r1 — restored 1 item');
    expect(await undoReceipt(store, file, 'R2', () => new Date())).toBe('memory: undid r2 — restored 1 item, forgot 1 item it added');
    const items = store.reload().items;
    expect(items.map((i) => i.content).sort()).toEqual(['the api lives on port 8080', 'use pnpm']);
    const back = items.find((i) => i.content === 'use pnpm')!;
    expect(store.isPinned(back)).toBe(true);
    expect(back).toMatchObject({ scope: '/w/shop', tags: ['js'], source: 'undo:r1' });
    expect(back.replaces).toBeUndefined();
    expect(await undoReceipt(store, file, 'r1', () => new Date())).toMatch(/^r1 was already undone/);
    expect(formatReceipts(listReceipts(file))[1]).toMatch(/\(undone\)$/);
    await expect(undoReceipt(store, file, 'r9', () => new Date())).rejects.toThrow(
      'no receipt r9 — aish memory log (or :memory log) lists them',
    );
    expect(statSync(receiptsPath(memoryPath)).mode & 0o777).toBe(0o600);
  });

  it('a restored item keeps its origin; under the same uid as anywhere else, it is never added twice nor brought back once forgotten', async () => {
    const { memoryPath, store, file } = setup();
    const a = await store.add('fact', 'the teammate says staging is on pg 15', { from: 'team:bob' });
    await store.forget(a.id);
    await recordArrival(memoryPath, 'agent:bot', { forgot: [a] }, () => false);
    // The same receipt on a second store (as another machine records the same arrival).
    const other = setup();
    writeFileSync(receiptsPath(other.memoryPath), readFileSync(receiptsPath(memoryPath)), { mode: 0o600 });
    expect(await undoReceipt(store, file, 'r1', () => new Date())).toBe('memory: undid r1 — restored 1 item');
    const back = store.reload().items[0]!;
    expect(back).toMatchObject({ content: 'the teammate says staging is on pg 15', from: 'team:bob' });
    expect(back.uid).not.toBe(a.uid);
    expect(await undoReceipt(other.store, other.file, 'r1', () => new Date())).toBe('memory: undid r1 — restored 1 item');
    expect(other.store.reload().items[0]!.uid).toBe(back.uid);
    // Forgotten since, on a store that had it: a later undo of the same arrival brings nothing back.
    const third = setup();
    writeFileSync(receiptsPath(third.memoryPath), readFileSync(receiptsPath(memoryPath)), { mode: 0o600 });
    writeFileSync(third.memoryPath, readFileSync(memoryPath));
    const s3 = MemoryStore.open(third.memoryPath);
    await s3.forget(s3.items()[0]!.id);
    writeFileSync(receiptsPath(third.memoryPath), readFileSync(receiptsPath(memoryPath), 'utf8').split('\n')[0] + '\n', { mode: 0o600 });
    expect(await undoReceipt(s3, new ReceiptFile(third.memoryPath), 'r1', () => new Date())).toBe(
      'memory: r1 was already undone (on another machine) — nothing restored or forgotten',
    );
    expect(s3.reload().items).toEqual([]);
  });

  it('keeps the newest 1,000 receipts, ids going on, undone marks kept', async () => {
    const { memoryPath, file } = setup();
    const draft = (n: number) => {
      const d = emptyDraft('machine:laptop');
      noteAdded(d, `U${n}`, `item ${n}`);
      return d;
    };
    await file.record(
      Array.from({ length: 600 }, (_, i) => draft(i)),
      new Date(),
    );
    await file.markUndone('r600', new Date(), async () => {});
    const ids = await file.record(
      Array.from({ length: 500 }, (_, i) => draft(600 + i)),
      new Date(),
    );
    expect(ids[0]).toBe('r601');
    const all = new ReceiptFile(memoryPath).all();
    expect(all.list).toHaveLength(1000);
    expect(all.list[0]!.id).toBe('r101');
    expect(all.undone.has('r600')).toBe(true);
    expect(readFileSync(receiptsPath(memoryPath), 'utf8').split('\n').filter(Boolean)).toHaveLength(1001);
    expect(await file.record([emptyDraft('machine:x')], new Date())).toEqual([]);
  });

  it('a receipt undone on another machine: listed so, kept through the bound, marked once; undo writes nothing and says so', async () => {
    const { memoryPath, store, file } = setup();
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const d = emptyDraft('machine:x');
        noteAdded(d, `U${i}`, `item ${i}`);
        return d;
      });
    await file.record(filler(1), new Date());
    const a = await store.add('fact', 'arrived from the laptop');
    const [id] = await recordArrival(memoryPath, 'machine:laptop', { added: [a] }, () => false);
    await file.markUndoneElsewhere([{ id: id!, at: '2026-12-01T10:00:00.000Z' }]);
    await file.markUndoneElsewhere([{ id: id!, at: '2026-12-02T10:00:00.000Z' }]);
    expect(listReceipts(file)[0]).toMatchObject({ id, undone: '2026-12-01T10:00:00.000Z', undone_elsewhere: true });
    expect(formatReceipts(listReceipts(file))[0]).toMatch(/ \(undone on another machine\)$/);
    const before = readFileSync(memoryPath, 'utf8');
    expect(await undoReceipt(store, file, id, () => new Date())).toBe(
      `memory: ${id} was already undone (on another machine) — nothing restored or forgotten`,
    );
    expect(readFileSync(memoryPath, 'utf8')).toBe(before);
    // Past the bound, the file is rewritten without the oldest: the mark stays one from elsewhere.
    await file.record(filler(999), new Date());
    const all = new ReceiptFile(memoryPath).all();
    expect([all.list.length, all.list[0]!.id]).toEqual([1000, id]);
    expect([all.undone.get(id!), all.elsewhere.has(id!)]).toEqual(['2026-12-01T10:00:00.000Z', true]);
  });

  it('a team acceptance is a receipt; undoing it drops the item (no longer sent), once', async () => {
    const { memoryPath, store, file } = setup();
    const root = realPath(tmpDir());
    mkdirSync(join(root, '.aish', 'memory'), { recursive: true });
    writeFileSync(join(root, '.aish', 'project-id'), 'shop\n');
    const rec = { uid: 'A1', ts: '2026-01-01T00:00:00.000Z', kind: 'fact', content: 'deploys go through ci' };
    writeFileSync(join(root, '.aish', 'memory', 'bob.jsonl'), JSON.stringify(rec) + '\n');
    const config = {
      ...DEFAULT_CONFIG,
      memory: { ...DEFAULT_CONFIG.memory, team: 'review', sync: { name: 'me' } },
    } as unknown as AishConfig;
    const team = new TeamMemory(config, memoryPath);
    await team.decide(team.pending(root)[0]!.item, 'accept');
    expect(team.accepted(root).map((i) => i.uid)).toEqual(['A1']);
    expect(formatReceipts(listReceipts(file))[0]).toContain('team: bob — added 1  "deploys go through ci"');
    expect(await undoReceipt(store, file, 'r1', () => new Date())).toBe('memory: undid r1 — restored 0 items, forgot 1 item it added');
    expect(new TeamMemory(config, memoryPath).accepted(root)).toEqual([]);
    expect(await undoReceipt(store, file, 'r1', () => new Date())).toMatch(/already undone/);
  });

  it('Tab after :memory undo offers the receipts not yet undone', async () => {
    const { memoryPath, store, file } = setup();
    const a = await store.add('fact', 'first arrival');
    await recordArrival(memoryPath, 'agent:bot', { added: [a] }, () => true);
    const b = await store.add('fact', 'second arrival');
    await recordArrival(memoryPath, 'agent:bot', { added: [b] }, () => true);
    await undoReceipt(store, file, 'r1', () => new Date());
    const open = (): Promise<MemorySession> => Promise.reject(new Error('no session is needed to list receipts'));
    const m = memoryService({ path: memoryPath, cwd: '/', open }, { live: false, sync: undefined, notice: () => {} });
    expect((await m.receipts()).map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(m.ids('receipts')).toEqual(['r2']);
  });
});
