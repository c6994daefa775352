import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { findSuperseded } from '../../src/memory/review/supersede';
import type { MemoryItem } from '../../src/memory/types';
import { tmpDir } from '../helpers/tmp';

const item = (id: number, content: string, scope?: string): MemoryItem => ({
  id,
  ts: '2026-01-01T00:00:00Z',
  kind: 'fact',
  content,
  ...(scope && { scope }),
});

// [new text, active item's text, updates it?]
const PAIRS: Array<[string, string, boolean]> = [
  ['Uses Node 20 in CI', 'Uses Node 18 in CI', true],
  ['my editor is emacs', 'my editor is vim', true],
  ['The staging database lives on host zebra-18', 'The staging database lives on host zebra-17', true],
  ['prefers spaces for indentation', 'prefers tabs for indentation', true],
  ['Deploys go through GitLab', 'Deploys go through Jenkins', true],
  ['default branch is main', 'default branch is master', true],
  ['works at Initech as a backend engineer', 'works at Initrode as a backend engineer', true],
  ['Python version is 3.12', 'Python version is 3.11', true],
  ['user is based in Berlin', 'user is based in Lisbon', true],
  // Unrelated, or only one common word shared.
  ['Uses Node 20 in CI', 'Prefers terse answers', false],
  ['uses docker for builds', 'uses pytest for tests', false],
  ['I use vim', 'I use docker', false],
  ['the project is written in Rust', 'the project has no tests yet', false],
  ['likes dark mode in every editor', 'editor plugins are managed by lazy.nvim and updated weekly', false],
  ['backups run nightly at 02:00', 'the CI run takes about ten minutes on a good day', false],
  ['cat is named Miso', 'dog is named Pixel and is three years old', false],
  // The same thing said again: a duplicate, not an update.
  ['Uses Node 20 in CI', 'uses node 20 in CI.', false],
  ['the main database is Postgres 16 on host db1', 'the main database is Postgres 16 on host db1 now', false],
  ['', 'my editor is vim', false],
];

describe('findSuperseded', () => {
  it.each(PAIRS)('%j updates %j: %s', (next, old, expected) => {
    const hit = findSuperseded({ kind: 'fact', content: next }, [item(1, old)]);
    expect(hit?.id).toBe(expected ? 1 : undefined);
  });

  it('only looks in the same scope', () => {
    expect(findSuperseded({ kind: 'fact', content: 'Uses Node 20 in CI' }, [item(1, 'Uses Node 18 in CI', '/p')])).toBeUndefined();
    expect(findSuperseded({ kind: 'fact', content: 'Uses Node 20 in CI', scope: '/p' }, [item(1, 'Uses Node 18 in CI', '/p')])?.id).toBe(1);
    expect(findSuperseded({ kind: 'fact', content: 'Uses Node 20 in CI', scope: '/p' }, [item(1, 'Uses Node 18 in CI')])).toBeUndefined();
  });

  it('picks the best-overlapping item, the newest on a tie', () => {
    const active = [item(5, 'Uses Node 16 for scripts'), item(4, 'Uses Node 18 in CI'), item(3, 'Uses Node 14 in CI')];
    expect(findSuperseded({ kind: 'fact', content: 'Uses Node 20 in CI' }, active)?.id).toBe(4);
  });
});

describe('MemoryStore.supersede', () => {
  it('writes the new item and a tombstone of the old one in one append; pin and scope carry over, provenance does not', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    const old = await store.add('fact', 'Uses Node 18 in CI', { scope: '/p', source: 'hand', tags: ['ci'] });
    await store.setPinned(old.id, true);
    const before = readFileSync(path, 'utf8');
    const r = await store.supersede(old.id, 'context', 'Uses Node 20 in CI', { source: 'session:abc' });
    expect(r.replaced?.id).toBe(old.id);
    expect(r.item).toMatchObject({
      id: 3,
      kind: 'context',
      content: 'Uses Node 20 in CI',
      scope: '/p',
      pinned: true,
      source: 'session:abc',
    });
    expect(r.item.tags).toBeUndefined();
    const added = readFileSync(path, 'utf8')
      .slice(before.length)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(added).toEqual([
      expect.objectContaining({ id: 3, content: 'Uses Node 20 in CI' }),
      expect.objectContaining({ id: 4, kind: 'forget', target: 1 }),
    ]);
    expect(
      MemoryStore.open(path)
        .items()
        .map((i) => i.id),
    ).toEqual([3]);
  });

  it('opts override what carries over', async () => {
    const store = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
    const old = await store.add('fact', 'editor is vim', { scope: '/p' });
    const r = await store.supersede(old.id, 'pref', 'editor is emacs', { scope: '/q' });
    expect(r.item.scope).toBe('/q');
  });

  it('an old item no longer active: only the new item is added', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    const old = await store.add('fact', 'editor is vim');
    await store.forget(old.id);
    const r = await store.supersede(old.id, 'fact', 'editor is emacs');
    expect(r.replaced).toBeUndefined();
    expect(r.item.id).toBe(3);
    expect(store.items().map((i) => i.content)).toEqual(['editor is emacs']);
    expect((await store.supersede(99, 'fact', 'x')).replaced).toBeUndefined();
  });
});
