/** Record identity through the real CLI: what `aish memory …` writes carries uid, hlc and target_uid; old files stay as they are. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivedUid } from '../../src/memory/log/identity';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const HLC_RE = /^\d{13}-\d{4}$/;

function lines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => !('meta' in r));
}

describe('record identity (real CLI)', () => {
  it('add, edit, forget, import and clear write uid and hlc; forgets name their target by uid', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    const file = join(dir, 'memory.jsonl');
    const run = (...args: string[]) => runAish(['--data-dir', dir, 'memory', ...args], { home });
    expect((await run('add', 'fact', 'Uses Node 18 in CI')).stdout).toBe('added 1 (fact)\n');
    expect((await run('add', 'pref', 'Terse answers')).stdout).toBe('added 2 (pref)\n');
    expect((await run('edit', '1', 'Uses Node 20 in CI')).stdout).toBe('replaced 1 with 3 (fact)\n');
    expect((await run('forget', '2')).stdout).toBe('forgot 2\n');
    const exported = join(home, 'other.jsonl');
    writeFileSync(exported, '{"id":1,"ts":"2025-01-01T00:00:00Z","kind":"fact","content":"from another machine"}\n');
    expect((await run('import', exported)).code).toBe(0);

    const recs = lines(file);
    const byId = new Map(recs.map((r) => [r.id, r]));
    expect(recs.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const r of recs) {
      expect(r.uid).toMatch(ULID_RE);
      expect(r.hlc).toMatch(HLC_RE);
    }
    // Separate processes, one machine: each write stamps after what the file holds.
    const stamps = recs.map((r) => r.hlc as string);
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(recs.map((r) => r.uid)).size).toBe(recs.length);
    expect(byId.get(4)).toMatchObject({ kind: 'forget', target: 1, target_uid: byId.get(1)!.uid });
    expect(byId.get(5)).toMatchObject({ kind: 'forget', target: 2, target_uid: byId.get(2)!.uid });
    expect(Object.keys(byId.get(1)!)).toEqual(['id', 'uid', 'hlc', 'ts', 'kind', 'content']);

    const listed = JSON.parse((await run('list', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(listed.map((i) => [i.id, i.uid])).toEqual(
      [3, 6].map((id) => [id, byId.get(id)!.uid]), // the import kept its 2025 time: listed last
    );

    expect((await run('clear', '--yes')).code).toBe(0);
    const cleared = lines(file).slice(recs.length);
    expect(cleared.map((r) => [r.kind, r.target, r.target_uid])).toEqual(
      expect.arrayContaining([
        ['forget', 3, byId.get(3)!.uid],
        ['forget', 6, byId.get(6)!.uid],
      ]),
    );
    expect(cleared).toHaveLength(2);
  });

  it('an old file without uids: list --json shows the derived uid, the file is left byte-identical, compaction keeps uids', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    const file = join(dir, 'memory.jsonl');
    const old = [
      '{"id":1,"ts":"2025-03-01T10:00:00Z","kind":"fact","content":"Uses Node 20 in CI"}',
      '{"id":2,"ts":"2025-03-01T10:05:00Z","kind":"pref","content":"Terse answers"}',
      '{"id":3,"ts":"2025-03-02T08:00:00Z","kind":"forget","target":1}',
    ].join('\n');
    const run = (...args: string[]) => runAish(['--data-dir', dir, 'memory', ...args], { home });
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(file, old + '\n', { mode: 0o600 });
    const before = readFileSync(file);
    const r = await run('list', '--json');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const listed = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const two = { ts: '2025-03-01T10:05:00Z', kind: 'pref', content: 'Terse answers' };
    // The uid a forget or a sync names it by, derived (never written back by a read).
    expect(listed).toEqual([{ id: 2, uid: derivedUid(two), ...two, from: 'here' }]);
    expect((await run('list')).code).toBe(0);
    expect(readFileSync(file).equals(before)).toBe(true);

    // A forget of the old item names it by the same derived uid; compaction copies uids as they are.
    expect((await run('add', 'fact', 'a new one')).code).toBe(0);
    expect((await run('forget', '2')).code).toBe(0);
    const forget = lines(file).find((x) => x.kind === 'forget' && x.target === 2)!;
    expect(forget.target_uid).toBe(derivedUid(two));
    const kept = lines(file).find((x) => x.content === 'a new one')!;
    expect((await run('compact')).code).toBe(0);
    expect(lines(file)).toEqual([kept]);
  });
});
