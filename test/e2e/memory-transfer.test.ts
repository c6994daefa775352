/** `aish memory export` / `import` through the real CLI, and an import killed part way. */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory } from '../../src/memory/store';
import { BIN } from '../helpers/paths';
import { spawnAish } from '../helpers/pty';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('aish memory export / import (real CLI)', () => {
  it('round-trips every active item into an empty data dir (jsonl and md); a second import adds nothing', async () => {
    const home = tmpDir();
    const a = ['--data-dir', join(home, 'a')];
    const run = (dir: string[], ...args: string[]) => runAish([...dir, 'memory', ...args], { home, cwd: home });
    await run(a, 'add', 'fact', 'deploys go through CI');
    await run(a, 'add', 'pref', 'terse answers');
    await run(a, 'pin', '2');
    const before = JSON.parse((await run(a, 'list', '--json')).stdout) as Array<{ content: string; kind: string }>;
    for (const [fmt, file] of [
      ['jsonl', 'mem.jsonl'],
      ['md', 'mem.md'],
    ]) {
      const path = join(home, file!);
      expect((await run(a, 'export', '--format', fmt!, path)).stdout).toBe(`exported 2 items to ${path}\n`);
      const b = ['--data-dir', join(home, `b-${fmt}`)];
      expect((await run(b, 'import', path)).stdout).toBe(`imported 2 items from ${path}; skipped 0 duplicates\n`);
      expect((await run(b, 'import', path)).stdout).toBe(`imported 0 items from ${path}; skipped 2 duplicates\n`);
      const after = JSON.parse((await run(b, 'list', '--json')).stdout) as Array<{
        content: string;
        kind: string;
        pinned?: boolean;
        source?: string;
      }>;
      expect(after.map((i) => [i.kind, i.content])).toEqual(before.map((i) => [i.kind, i.content]));
      expect(after.find((i) => i.content === 'terse answers')).toMatchObject({ pinned: true, source: `import:${file}` });
    }
    expect((await run(a, 'export', '--format', 'yaml')).stderr).toBe('aish: unknown format "yaml" — use jsonl, md or agents-md\n');
  });

  it('--dry-run writes nothing; near-duplicates are left out without a terminal', async () => {
    const home = tmpDir();
    const d = ['--data-dir', join(home, 'd')];
    await runAish([...d, 'memory', 'add', 'fact', 'the staging database lives on host zebra-17'], { home });
    const file = join(home, 'in.jsonl');
    writeFileSync(
      file,
      [
        '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"the staging database lives on host zebra-17 now"}',
        '{"id":2,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"something new"}',
      ].join('\n') + '\n',
    );
    const dry = await runAish([...d, 'memory', 'import', '--dry-run', file], { home });
    expect(dry.stdout).toBe(
      `would import up to 1 item from ${file}, left out 1 near-duplicate (run in a terminal to review them); nothing written (--dry-run)\n`,
    );
    expect(readFileSync(join(home, 'd', 'memory.jsonl'), 'utf8')).not.toContain('something new');
    const r = await runAish([...d, 'memory', 'import', file], { home });
    expect(r.stdout).toBe(
      `imported 1 item from ${file}; skipped 0 duplicates, left out 1 near-duplicate (run in a terminal to review them)\n`,
    );
  });

  it('in a terminal each near-duplicate is asked [y/N]: y imports it, n leaves it out; Ctrl-D calls the import off', async () => {
    const home = tmpDir();
    const d = ['--data-dir', join(home, 'd')];
    await runAish([...d, 'memory', 'add', 'fact', 'the staging database lives on host zebra-17'], { home });
    await runAish([...d, 'memory', 'add', 'fact', 'deploys to production go through the release pipeline'], { home });
    const file = join(home, 'in.jsonl');
    const rec = (id: number, content: string) => JSON.stringify({ id, ts: '2026-01-01T00:00:00Z', kind: 'fact', content });
    writeFileSync(
      file,
      [
        rec(1, 'the staging database lives on host zebra-17 now'),
        rec(2, 'deploys to production go through the release pipeline only'),
        rec(3, 'something new'),
      ].join('\n') + '\n',
    );
    const memory = join(home, 'd', 'memory.jsonl');
    const before = readFileSync(memory);
    const stopped = spawnAish([...d, 'memory', 'import', file], { home });
    await stopped.waitFor('zebra-17 now" is close to #1');
    stopped.write('y\r');
    await stopped.waitFor('pipeline only" is close to #2');
    stopped.write('\x04');
    expect(await stopped.exitCode(10_000)).toBe(1);
    expect(stopped.text()).toContain('aish: import stopped at a question — nothing imported');
    expect(readFileSync(memory).equals(before)).toBe(true);

    const t = spawnAish([...d, 'memory', 'import', file], { home });
    await t.waitFor('zebra-17 now" is close to #1');
    t.write('y\r');
    await t.waitFor('pipeline only" is close to #2');
    t.write('n\r');
    expect(await t.exitCode(10_000)).toBe(0);
    expect(t.text()).toContain(`imported 2 items from ${file}; skipped 0 duplicates, left out 1 near-duplicate`);
    const contents = loadMemory(memory).items.map((i) => i.content);
    expect(contents).toContain('the staging database lives on host zebra-17 now');
    expect(contents).toContain('something new');
    expect(contents).not.toContain('deploys to production go through the release pipeline only');
  });

  it('SIGKILL during an import leaves a loadable store with none or all of the imported items', async () => {
    const home = tmpDir();
    const data = join(home, 'd');
    const file = join(home, 'big.jsonl');
    const n = 20_000;
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: i + 1, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: `imported item ${i} ${'x'.repeat(150)}` }),
    );
    writeFileSync(file, lines.join('\n') + '\n');
    await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'already here'], { home });
    const seen = new Set<number>();
    for (const delay of [150, 250, 350, 450, 600]) {
      const child = spawn(process.execPath, [BIN, '--data-dir', data, 'memory', 'import', file], {
        env: isolatedEnv(home),
        stdio: 'ignore',
      });
      // Listened for from the start: an import that ends before the kill must not be missed.
      const closed = new Promise((r) => child.once('close', r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await closed;
      const snap = loadMemory(join(data, 'memory.jsonl'));
      const count = snap.items.length - 1;
      expect([0, n]).toContain(count);
      expect(snap.skipped).toEqual([]);
      seen.add(count);
      if (count === n) break;
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});
