import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { exportJsonl, exportMarkdown, parseImport } from '../../src/memory/porting/transfer';
import { tmpDir } from '../helpers/tmp';

async function sample(): Promise<MemoryStore> {
  const store = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
  await store.add('fact', 'deploys go through CI', { tags: ['ops', 'ci'], source: 'session:abc' });
  const p = await store.add('pref', 'terse answers; no summaries');
  await store.add('context', 'repo a uses pnpm', { scope: '/src/a' });
  const gone = await store.add('fact', 'forgotten one');
  await store.forget(gone.id);
  await store.setPinned(p.id, true);
  return store;
}

const shape = (store: MemoryStore) =>
  store
    .items()
    .map((it) => ({ kind: it.kind, content: it.content, ts: it.ts, tags: it.tags, scope: it.scope, pinned: store.isPinned(it) }))
    .sort((a, b) => a.content.localeCompare(b.content));

describe('memory export and import', () => {
  it.each([
    ['jsonl', exportJsonl],
    ['md', exportMarkdown],
  ] as const)('%s: export → import into an empty store round-trips every active item', async (_f, exporter) => {
    const from = await sample();
    const text = exporter(from.items(), (it) => from.isPinned(it), new Date('2026-11-23T00:00:00Z'));
    const parsed = parseImport(text);
    expect(parsed.problems).toEqual([]);
    const to = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
    const r = await to.importItems(parsed.items);
    expect(r.added).toHaveLength(3);
    expect(shape(to)).toEqual(shape(from));
    // provenance of the original is carried as given
    expect(to.items().find((i) => i.content === 'deploys go through CI')?.source).toBe('session:abc');
    // a second import adds nothing
    expect((await to.importItems(parsed.items)).added).toEqual([]);
    expect(to.items()).toHaveLength(3);
  });

  it('the Markdown export groups by kind and scope and reads well', async () => {
    const from = await sample();
    const md = exportMarkdown(from.items(), (it) => from.isPinned(it), new Date('2026-11-23T00:00:00Z'));
    expect(md).toMatch(/^# aish memory\n/);
    expect(md).toContain('## fact — global\n\n- deploys go through CI <!-- aish {');
    expect(md).toContain('## context — project /src/a\n\n- repo a uses pnpm');
    expect(md).not.toContain('forgotten one');
  });

  it("reads another machine's memory.jsonl (tombstones applied) and reports unusable lines", () => {
    const text = [
      '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"kept"}',
      '{"id":2,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"gone"}',
      '{"id":3,"ts":"2026-01-01T00:00:00Z","kind":"forget","target":2}',
      'not json at all',
    ].join('\n');
    const p = parseImport(text);
    expect(p.items.map((i) => i.content)).toEqual(['kept']);
    expect(p.problems).toHaveLength(2);
    expect(p.problems[0]).toMatch(/^4: not valid JSON/);
    expect(p.problems[1]).toBe('2: item 2 not imported: line 3 of this file forgets it');
  });

  it('imports with fresh ids after the local ones, in one rewrite', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, '{"id":40,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"local"}\n');
    const store = MemoryStore.open(path);
    const r = await store.importItems([
      { kind: 'fact', content: 'from afar', ts: '2025-01-01T00:00:00Z' },
      { kind: 'fact', content: 'LOCAL' },
    ]);
    expect(r.added.map((i) => [i.id, i.content, i.ts])).toEqual([[41, 'from afar', '2025-01-01T00:00:00Z']]);
    expect(r.duplicates.map((d) => d.content)).toEqual(['LOCAL']);
  });
});

describe('short tombstones in an imported file', () => {
  it('{"forget":3}, {"kind":"forget","target":3} and a tombstone by uid forget their item in the file, named by line', () => {
    const item = (id: number, content: string, uid?: string) =>
      JSON.stringify({ id, ts: '2026-01-01T00:00:00Z', kind: 'fact', content, ...(uid && { uid }) });
    const text = [
      JSON.stringify({ meta: { format: 'aish-memory-export', version: 1 } }),
      item(1, 'stays'),
      item(2, 'forgotten by kind and target'),
      item(3, 'forgotten by forget'),
      item(4, 'forgotten by uid', 'U4'),
      '{"forget":3}',
      '{"kind":"forget","target":2}',
      '{"kind":"forget","target_uid":"U4"}',
      '{"forget":99}',
    ].join('\n');
    const r = parseImport(text);
    expect(r.items.map((i) => i.content)).toEqual(['stays']);
    expect(r.problems).toEqual([
      '3: item 2 not imported: line 7 of this file forgets it',
      '4: item 3 not imported: line 6 of this file forgets it',
      '5: item 4 not imported: line 8 of this file forgets it',
      '9: forget of id 99, which no item in this file has — skipped (ids differ between memories)',
    ]);
  });
});
