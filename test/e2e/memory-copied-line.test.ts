/**
 * A line of memory.jsonl copied by hand (with a new id, or the text changed too): two items would
 * share one uid, so a sync sent one of them and forgetting the copy forgot the original on every
 * other machine. The later one keeps its text and gets a uid of its own, the same in every reader
 * (the index, a full read, sync; export lists it), , with one warning naming the line. Real processes, real git.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory } from '../../src/memory/store';
import { aishIn, bareRemote, syncBox, type SyncBox } from '../helpers/sync-boxes';

interface Listed {
  id: number;
  uid: string;
  content: string;
}

function world() {
  const { root, bare } = bareRemote('aish-copied-line-');
  const box = (name: string): SyncBox => syncBox(join(root, name), bare, name, { data: true });
  return { box };
}

async function ok(b: SyncBox, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await aishIn(b, args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

async function listed(b: SyncBox): Promise<{ items: Listed[]; stderr: string }> {
  const r = await ok(b, ['memory', 'list', '--json']);
  return { items: JSON.parse(r.stdout) as Listed[], stderr: r.stderr };
}

const byContent = (items: readonly Listed[]) => items.map((it) => `${it.content} ${it.uid}`).sort();

/** The line of memory.jsonl holding `content`, parsed. */
function lineOf(b: SyncBox, content: string): Record<string, unknown> {
  const line = readFileSync(b.memory, 'utf8')
    .split('\n')
    .find((l) => l.includes(`"content":${JSON.stringify(content)}`));
  return JSON.parse(line!) as Record<string, unknown>;
}

describe('a hand-copied line of memory.jsonl', () => {
  it('keeps its text under a uid of its own, the same in every reader; forgetting it forgets nothing else, here or elsewhere', async () => {
    const w = world();
    const a = w.box('a');
    const b = w.box('b');
    await ok(a, ['memory', 'add', 'fact', 'deploys go out on tuesdays']);
    await ok(a, ['memory', 'add', 'pref', 'answers in british english']);
    await ok(a, ['memory', 'sync']);
    await ok(a, ['memory', 'list']); // builds the index

    // Copied twice by hand: once with only the id changed, once with the text changed too (as an editor would write it).
    const orig = lineOf(a, 'deploys go out on tuesdays');
    const copies = [
      { ...orig, id: 10 },
      { ...orig, id: 11, content: 'deploys go out on thursdays' },
    ];
    writeFileSync(a.memory, readFileSync(a.memory, 'utf8') + copies.map((c) => JSON.stringify(c) + '\n').join(''));

    const first = await listed(a);
    expect(first.items).toHaveLength(4);
    expect(new Set(first.items.map((it) => it.uid)).size).toBe(4);
    expect(first.items.find((it) => it.id === orig.id)!.uid).toBe(orig.uid);
    const warnings = first.stderr.trim().split('\n');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^memory\.jsonl:4: same uid as line 2 \(a copied line\?\) — kept as an item of its own, uid [0-9A-Z]{26}$/);
    expect(warnings[1]).toMatch(/^memory\.jsonl:5: same uid as line 2 /);

    // Every reader agrees: the index (built by `list`), a full read, the export.
    await ok(a, ['memory', 'list']);
    const again = await listed(a);
    expect(byContent(again.items)).toEqual(byContent(first.items));
    expect(byContent(loadMemory(a.memory).items.map((it) => ({ ...it, uid: String(it.uid) })))).toEqual(byContent(first.items));
    const exported = (await ok(a, ['memory', 'export'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => typeof r.content === 'string');
    // (An export carries no uids: an import makes new ones.) All four, by id.
    const ids = (xs: ReadonlyArray<{ id?: unknown; content?: unknown }>) => xs.map((r) => `${String(r.id)} ${String(r.content)}`).sort();
    expect(ids(exported)).toEqual(ids(first.items));

    // The sync sends both copies; the other machine has all four, under the same uids.
    await ok(a, ['memory', 'sync']);
    await ok(b, ['memory', 'sync']);
    const there = await listed(b);
    expect(byContent(there.items)).toEqual(byContent(first.items));
    expect(there.stderr).toBe('');

    // Forgetting the copy forgets the copy only, here and there.
    await ok(a, ['memory', 'forget', '10']);
    await ok(a, ['memory', 'sync']);
    await ok(b, ['memory', 'sync']);
    const left = byContent(first.items.filter((it) => it.id !== 10));
    expect(byContent((await listed(a)).items)).toEqual(left);
    expect(byContent((await listed(b)).items)).toEqual(left);
    expect(loadMemory(b.memory).items.map((it) => it.content)).toContain('deploys go out on tuesdays');
  }, 120_000);

  it('a copy appended after the index was built reads the same through the index and a full read', async () => {
    const w = world();
    const a = w.box('a');
    await ok(a, ['memory', 'add', 'fact', 'the staging db is pg 16']);
    await ok(a, ['memory', 'add', 'fact', 'builds run on buildkite']);
    await ok(a, ['memory', 'list']); // builds the index
    const orig = lineOf(a, 'the staging db is pg 16');
    appendFileSync(a.memory, JSON.stringify({ ...orig, id: 7, content: 'the staging db is pg 17' }) + '\n');

    const viaIndex = await listed(a);
    expect(viaIndex.items).toHaveLength(3);
    expect(new Set(viaIndex.items.map((it) => it.uid)).size).toBe(3);
    expect(viaIndex.stderr).toMatch(/^memory\.jsonl:4: same uid as line 2 \(a copied line\?\)/);
    const full = loadMemory(a.memory);
    expect(byContent(full.items.map((it) => ({ ...it, uid: String(it.uid) })))).toEqual(byContent(viaIndex.items));
    // Nothing was written back: the file is as the user left it.
    expect(readFileSync(a.memory, 'utf8').trimEnd().split('\n')).toHaveLength(4);
  }, 60_000);
});
