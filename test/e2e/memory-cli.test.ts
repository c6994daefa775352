import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uidOf } from '../../src/memory/log/identity';
import { originOf } from '../../src/memory/origin';
import { MemoryStore } from '../../src/memory/store';
import { BIN } from '../helpers/paths';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('aish memory (real CLI)', () => {
  it('creates the data dir 0700 and memory.jsonl 0600, even under umask 000', () => {
    const home = tmpDir();
    const dataDir = join(home, 'nested', 'data');
    // a permissive umask must not leak into private files
    execFileSync('sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" --data-dir "${dataDir}" memory add fact "hello"`], {
      env: isolatedEnv(home),
    });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'memory.jsonl'))).toBe(0o600);
  });

  it('uses ~/.local/share/aish by default, created 0700', async () => {
    const home = tmpDir();
    const r = await runAish(['memory', 'add', 'pref', 'terse', 'answers'], { home });
    expect(r).toMatchObject({ code: 0, stdout: 'added 1 (pref)\n', stderr: '' });
    const dir = join(home, '.local', 'share', 'aish');
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'memory.jsonl'))).toBe(0o600);
    const p = await runAish(['memory', 'path'], { home });
    expect(p.stdout).toBe(join(dir, 'memory.jsonl') + '\n');
  });

  it('lists an empty memory before anything was written: no data dir, an empty one, a memory.jsonl with no lines', async () => {
    const home = tmpDir();
    const empty = join(home, 'empty');
    mkdirSync(empty);
    const blank = join(home, 'blank');
    mkdirSync(blank);
    writeFileSync(join(blank, 'memory.jsonl'), '');
    for (const dir of [join(home, 'none'), empty, blank]) {
      const json = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home });
      expect(json, dir).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
      expect((await runAish(['--data-dir', dir, 'memory', 'list'], { home })).code, dir).toBe(0);
    }
  });

  it('add, list, list --json, forget, edit, clear, compact', async () => {
    const home = tmpDir();
    const d = ['--data-dir', join(home, 'd')];
    const run = (...args: string[]) => runAish([...d, 'memory', ...args], { home });

    expect((await run('add', 'fact', 'User', 'prefers', 'terse', 'responses.')).stdout).toBe('added 1 (fact)\n');
    expect((await run('add', 'context', 'Current project: aish.')).stdout).toBe('added 2 (context)\n');

    const list = await run('list');
    expect(list.code).toBe(0);
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/ID\s+AGE\s+KIND\s+CONTENT/);
    expect(rows[1]).toMatch(/^\*\s+2\s+\d+s\s+context\s+Current project: aish\.$/);
    expect(rows[2]).toMatch(/^\*\s+1\s+\d+s\s+fact\s+User prefers terse responses\.$/);
    expect(rows[3]).toBe('2 items; * = in [background] here (2, within 2000 chars); the rest is recalled when relevant');

    const json = JSON.parse((await run('list', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(json.map((i) => [i.id, i.kind, i.content])).toEqual([
      [2, 'context', 'Current project: aish.'],
      [1, 'fact', 'User prefers terse responses.'],
    ]);
    expect(Object.keys(json[0]!)).toEqual(['id', 'uid', 'hlc', 'ts', 'kind', 'content', 'from']);

    expect((await run('forget', '2')).stdout).toBe('forgot 2\n');
    const again = await run('forget', '2');
    expect(again).toMatchObject({ code: 1, stdout: '', stderr: 'aish: memory 2 is already forgotten; nothing written\n' });
    const unknown = await run('forget', '99');
    expect(unknown).toMatchObject({ code: 1, stderr: 'aish: no memory item 99; nothing written (see aish memory list)\n' });

    expect((await run('edit', '1', 'User prefers very terse responses.')).stdout).toBe('replaced 1 with 4 (fact)\n');

    const refused = await run('clear');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('aish: this would forget all 1 memory item — run again with --yes to confirm\n');
    expect((await run('clear', '--yes')).stdout).toBe('forgot 1 item\n');
    expect(JSON.parse((await run('list', '--json')).stdout)).toEqual([]);

    const compact = await run('compact');
    expect(compact.stdout).toBe('compacted memory.jsonl: kept 0 items, dropped 6 forgotten records\n');
    // ids 1-6 were used (3 items, 3 tombstones): the next is 7 even though the file now holds none
    expect((await run('add', 'fact', 'after compaction')).stdout).toBe('added 7 (fact)\n');
  });

  it('reports unreadable lines on stderr as memory.jsonl:LINE: reason and still lists the rest', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'good'], { home });
    const file = join(dir, 'memory.jsonl');
    writeFileSync(
      file,
      readFileSync(file, 'utf8') +
        '{id: 7, ts: \'2026-01-01T00:00:00Z\', kind: \'fact\', content: \'json5 hand edit\',}\nnot json at all\n{"id":8,"kind":"wish"}\n',
    );
    const r = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "memory.jsonl:4: not valid JSON or JSON5 (invalid character 'o' at 1:2)\n" +
        'memory.jsonl:5: ts must be an ISO-8601 time (got nothing)\n',
    );
    expect((JSON.parse(r.stdout) as Array<{ id: number }>).map((i) => i.id).sort()).toEqual([1, 7]);
    const add = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'x'], { home });
    expect(add.stderr).toBe('warning: memory.jsonl has 2 unreadable lines (see aish memory list)\n');
    expect(add.stdout).toBe('added 9 (fact)\n'); // 8 was seen in a broken line: reserved
  });

  it('a hand-edited line with U+2028 loads without json5 writing warnings to stderr', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'first'], { home });
    appendFileSync(join(dir, 'memory.jsonl'), "{id: 5, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'line\u2028separator'}\n");
    const r = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home });
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as Array<{ id: number }>).map((i) => i.id).sort()).toEqual([1, 5]);
  });

  it('a hand-edited line in Latin-1 is reported by number, listed, and kept byte for byte by compact', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'first'], { home });
    const file = join(dir, 'memory.jsonl');
    const cafe = Buffer.from('{"id":5,"ts":"2026-01-01T00:00:00Z","kind":"pref","content":"coffee at the café"}', 'latin1');
    appendFileSync(file, Buffer.concat([cafe, Buffer.from('\n')]));
    const r = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home });
    expect(r.stderr).toBe('memory.jsonl:3: invalid UTF-8 (kept as is)\n');
    expect((JSON.parse(r.stdout) as Array<{ id: number }>).map((i) => i.id).sort()).toEqual([1, 5]);
    const c = await runAish(['--data-dir', dir, 'memory', 'compact'], { home });
    expect(c).toMatchObject({ code: 0, stdout: 'compacted memory.jsonl: kept 2 items, dropped 0 forgotten records\n' });
    expect(readFileSync(file).includes(cafe)).toBe(true);
    expect(readFileSync(file).includes(Buffer.from('\ufffd'))).toBe(false); // no U+FFFD written
  });

  it('list --json is the array as one JSON.stringify would give it, each item told whole (tombstones, pins, scopes, uids, hand edits)', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    mkdirSync(dir);
    const file = join(dir, 'memory.jsonl');
    const rec = (r: object) => JSON.stringify(r);
    const lines = [rec({ meta: { format: 'aish-memory', version: 1, maxId: 3 } })];
    for (let id = 4; id <= 2100; id++)
      lines.push(
        rec({
          id,
          ts: new Date(Date.UTC(2025, 0, 1, 0, 0, id)).toISOString(),
          kind: 'fact',
          content: `item ${id} "quoted"\t\u2028`,
          ...(id % 4 === 0 && { scope: '/home/me/app', tags: ['x'] }),
        }),
      );
    lines.push(
      rec({ id: 2101, ts: '2025-02-01T00:00:00Z', kind: 'forget', target: 10 }),
      rec({ id: 2102, ts: '2025-02-01T00:00:00Z', kind: 'pin', target: 11 }),
    );
    lines.push('{ id: 2103, ts: "2024-06-01T00:00:00Z", kind: "pref",', '  content: "pretty-printed by hand", pinned: true }');
    writeFileSync(file, lines.join('\n') + '\n');
    const r = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // Each item as stored, with the uid derived for records written before uids existed, right
    // after the id, `from` (here, unless it came from elsewhere), and `pinned: true` when a pin record pins it (its own field when not unpinned).
    const store = MemoryStore.open(file);
    const items = store.snapshot().items.map((it) => {
      const { id, pinned: _own, ...rest } = it;
      return { id, uid: uidOf(it), ...rest, from: originOf(it), ...(store.isPinned(it) && { pinned: true }) };
    });
    expect(items).toHaveLength(2097);
    // U+2028 spelled \u2028 (the output boundary would otherwise show it): the same JSON value.
    expect(r.stdout).toBe(JSON.stringify(items, null, 2).replace(/\u2028/g, '\\u2028') + '\n');
    const listed = JSON.parse(r.stdout) as Array<{ id: number; uid: string; pinned?: boolean; scope?: string }>;
    expect(listed).toEqual(JSON.parse(JSON.stringify(items)));
    const byId = new Map(listed.map((it) => [it.id, it]));
    expect(byId.get(11)).toMatchObject({ pinned: true }); // by a pin record
    expect(byId.get(2103)).toMatchObject({ pinned: true }); // by its own field
    expect(byId.get(12)!.pinned).toBeUndefined();
    expect(byId.get(12)).toMatchObject({ scope: '/home/me/app' });
    expect(byId.get(13)!.scope).toBeUndefined(); // global
    expect(listed.every((it) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(it.uid))).toBe(true);
    expect(new Set(listed.map((it) => it.uid)).size).toBe(listed.length);
  });

  it('add never reuses an id after a hand edit in the middle, and still refuses a duplicate', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    const run = (...args: string[]) => runAish(['--data-dir', dir, 'memory', ...args], { home });
    for (const t of ['one', 'two', 'three']) await run('add', 'fact', t);
    const file = join(dir, 'memory.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, '{"id":900,"ts":"2025-01-01T00:00:00Z","kind":"fact","content":"typed by hand"}');
    writeFileSync(file, lines.join('\n'));
    expect((await run('add', 'fact', 'four')).stdout).toBe('added 901 (fact)\n');
    expect(await run('add', 'fact', '  TYPED   by hand ')).toMatchObject({
      code: 0,
      stdout: 'already remembered as #900; nothing written\n',
    });
    expect(await run('add', 'fact', 'Four')).toMatchObject({ code: 0, stdout: 'already remembered as #901; nothing written\n' });
    expect((await run('add', 'fact', 'five')).stdout).toBe('added 902 (fact)\n');
    expect(MemoryStore.open(file).snapshot().skipped).toEqual([]);
  });

  it.each([
    [['memory', 'add', 'note', 'x'], 'aish: unknown kind "note" — use fact, pref or context\n'],
    [['memory', 'forget', 'abc'], 'aish: "abc" is not a memory id — ids are whole numbers ≥ 1 (see aish memory list)\n'],
    [['memory', 'forget', '0'], 'aish: "0" is not a memory id — ids are whole numbers ≥ 1 (see aish memory list)\n'],
    [['memory', 'add', 'fact'], "aish: missing required argument 'text' (see aish memory add --help)\n"],
    [['memory', 'frobnicate'], "aish: unknown command 'frobnicate' (see aish memory --help)\n"],
    [['sessions', 'frobnicate'], "aish: unknown command 'frobnicate' (see aish sessions --help)\n"],
    [['memory', 'list', '--bogus'], "aish: unknown option '--bogus' (see aish memory list --help)\n"],
    [['--bogus'], "aish: unknown option '--bogus' (see aish --help)\n"],
  ])('usage error %j exits 2 with one line', async (args, stderr) => {
    const home = tmpDir();
    const r = await runAish(['--data-dir', join(home, 'd'), ...args], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(stderr);
    expect(r.stdout).toBe('');
  });

  it('--version and --help exit 0', async () => {
    const home = tmpDir();
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await runAish(['--version'], { home })).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const help = await runAish(['--help'], { home });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: aish/);
    expect(help.stdout).toMatch(/memory/);
  });
});
