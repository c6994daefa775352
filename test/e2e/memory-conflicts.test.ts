/** Private items and conflict review through the real CLI and REPL (built dist/). */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryItem } from '../../src/memory/types';
import { loadMemory } from '../../src/memory/store';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { conflictedStore } from '../helpers/memory-conflict';
import { spawnAish } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

function dataDir(): { home: string; data: string; args: string[]; memory: string } {
  const home = tmpDir();
  const data = join(home, 'data');
  mkdirSync(data, { mode: 0o700 });
  return { home, data, args: ['--data-dir', data], memory: join(data, 'memory.jsonl') };
}

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => !('meta' in r));

describe('private items', () => {
  it('aish memory add --private (any flag order): written private, said so, listed (private), kept by list --json and export', async () => {
    const { home, args, memory } = dataDir();
    const project = tmpDir();
    const a = await runAish([...args, 'memory', 'add', '--private', 'fact', 'staging', 'db', 'is', 'on', 'port', '6543'], { home });
    expect(a.stdout).toBe('added 1 (fact), private — never synced\n');
    const b = await runAish([...args, 'memory', 'add', '--private', '--project', 'pref', 'tabs', 'here'], { home, cwd: project });
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(/^added 2 \(pref\) for .*, private — never synced\n$/);
    await runAish([...args, 'memory', 'add', 'fact', 'public', 'one'], { home });
    expect(records(memory).map((r) => [r.content, r.private])).toEqual([
      ['staging db is on port 6543', true],
      ['tabs here', true],
      ['public one', undefined],
    ]);
    const list = await runAish([...args, 'memory', 'list'], { home });
    expect(list.stdout).toMatch(/staging db is on port 6543 {2}\(private\)\n/);
    expect(list.stdout).toMatch(/public one\n/);
    const json = JSON.parse((await runAish([...args, 'memory', 'list', '--json'], { home })).stdout) as MemoryItem[];
    expect(json.map((i) => i.private)).toEqual([undefined, true, true]);
    const exported = (await runAish([...args, 'memory', 'export'], { home })).stdout;
    expect(exported).toContain('"private":true');
  });

  it(':remember --private and :memory add --project --private in the REPL', async () => {
    const { home, args, memory } = dataDir();
    const r = await runAish(args, {
      home,
      env: fake.env(),
      input:
        ':remember --private my locker code is in 1password\n:memory add --project --private context on-call this week\n:memory list\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('memory: added 1 (fact), private — never synced');
    expect(r.stdout).toMatch(/memory: added 2 \(context\) for .*, private — never synced/);
    expect(r.stdout).toMatch(/my locker code is in 1password {2}\(private\)/);
    expect(records(memory).map((x) => [x.content, x.private, typeof x.scope])).toEqual([
      ['my locker code is in 1password', true, 'undefined'],
      ['on-call this week', true, 'string'],
    ]);
  });
});

describe('conflicts', () => {
  it('aish memory list marks them; aish memory review in a terminal shows old + rivals and 1 keeps one, forgetting the other', async () => {
    const { home, args, memory } = dataDir();
    const { theirs, mine } = await conflictedStore(memory);
    const list = await runAish([...args, 'memory', 'list'], { home });
    expect(list.stdout).toMatch(/CI runs Node 22 {2}\(from \w+\) {2}\(conflict\)\n/); // received from the other machine
    expect(list.stdout).toMatch(/CI runs Node 20 {2}\(conflict\)\n/);
    const t = spawnAish([...args, 'memory', 'review'], { home });
    await t.waitFor('keep which? [1/2/b/s]');
    expect(t.text()).toContain('old #1: CI runs Node 18');
    expect(t.text()).toContain(`1. #${theirs}: CI runs Node 22  — via workstation`);
    t.write('1\r');
    expect(await t.exitCode(15_000)).toBe(0);
    expect(t.text()).toContain(`kept #${theirs}, forgot #${mine.id}`);
    expect(t.text()).toContain('[aish] review: conflicts resolved 1, kept all 0, skipped 0; the inbox is empty');
    expect(loadMemory(memory).items.map((i) => i.content)).toEqual(['CI runs Node 22']);
    expect(records(memory).at(-1)).toMatchObject({ kind: 'forget', target: mine.id, target_uid: mine.uid });
    expect((await runAish([...args, 'memory', 'list'], { home })).stdout).not.toContain('(conflict)');
  });

  it('aish memory review --json lists the conflict (old item and rivals); once kept whole, it is not listed', async () => {
    const { home, args, memory } = dataDir();
    const { old, mine, theirs } = await conflictedStore(memory);
    const json = await runAish([...args, 'memory', 'review', '--json'], { home });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        conflict: expect.any(String),
        old: { id: old.id, kind: 'fact', content: 'CI runs Node 18' },
        rivals: [
          {
            id: theirs,
            kind: 'fact',
            content: 'CI runs Node 22',
            uid: expect.any(String),
            ts: expect.any(String),
            from: 'via workstation',
          },
          { id: mine.id, kind: 'fact', content: 'CI runs Node 20', uid: expect.any(String), ts: expect.any(String) },
        ],
      },
    ]);
    await runAish(args, { home, env: fake.env(), input: ':memory review\nb\n' });
    expect(JSON.parse((await runAish([...args, 'memory', 'review', '--json'], { home })).stdout)).toEqual([]);
  });

  it(':memory review piped: b keeps both, and the next review does not ask', async () => {
    const { home, data, args, memory } = dataDir();
    await conflictedStore(memory);
    const r = await runAish(args, { home, env: fake.env(), input: ':memory review\nb\n:memory review\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.match(/keep which\?/g)).toHaveLength(1);
    expect(r.stdout).toContain('kept all 2');
    expect(loadMemory(memory).items).toHaveLength(2);
    expect(records(join(data, 'inbox.jsonl'))).toEqual([expect.objectContaining({ action: 'both', keep: expect.any(Array) })]);
  });
});
