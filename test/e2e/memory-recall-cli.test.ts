/** `aish memory plan|search|pin|unpin|add --project` and `memory: false`, through the real CLI. */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

function seed(path: string, newer: number): void {
  const lines = [
    JSON.stringify({ id: 1, ts: '2025-01-01T10:00:00Z', kind: 'fact', content: 'the staging database lives on host zebra-17' }),
  ];
  lines.push(
    JSON.stringify({ id: 2, ts: '2025-01-02T10:00:00Z', kind: 'fact', content: 'repo b builds with make', scope: '/nowhere/repo-b' }),
  );
  for (let k = 0; k < newer; k++) {
    lines.push(
      JSON.stringify({
        id: 3 + k,
        ts: new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString(),
        kind: 'fact',
        content: `note ${k}: the build is fast and the tests are green (${k})`,
      }),
    );
  }
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.join('\n') + '\n');
}

describe('aish memory plan / search / pin (real CLI)', () => {
  it('plan --json: background, recall with scores, and every left-out item with its reason', async () => {
    const home = tmpDir();
    const data = join(home, 'd');
    seed(join(data, 'memory.jsonl'), 200);
    const r = await runAish(['--data-dir', data, 'memory', 'plan', '--json', 'where does the staging database live?'], { home, cwd: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      background: Array<{ id: number }>;
      recall: Array<{ id: number; score: number }>;
      left_out: Array<{ id: number; reason: string }>;
    };
    expect(plan.recall.map((x) => x.id)).toEqual([1]);
    expect(plan.recall[0]!.score).toBeGreaterThan(0);
    expect(plan.left_out).toContainEqual({ id: 2, reason: 'scope' });
    expect(plan.left_out.some((l) => l.reason === 'below threshold')).toBe(true);
    // every active item is accounted for exactly once
    const ids = [...plan.background, ...plan.recall, ...plan.left_out].map((x) => x.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 202 }, (_, i) => i + 1));
  });

  it("search --json ranks every project's items; pin and unpin change what leads [background]", async () => {
    const home = tmpDir();
    const data = join(home, 'd');
    seed(join(data, 'memory.jsonl'), 50);
    const run = (...a: string[]) => runAish(['--data-dir', data, 'memory', ...a], { home, cwd: home });
    const s = await run('search', '--json', 'builds with make');
    expect((JSON.parse(s.stdout) as Array<{ id: number; scope?: string }>)[0]).toMatchObject({ id: 2, scope: '/nowhere/repo-b' });
    expect((await run('pin', '1')).stdout).toBe('pinned 1\n');
    expect((await run('pin', '1')).stdout).toBe('memory 1 is already pinned; nothing written\n');
    const plan = JSON.parse((await run('plan', '--json', 'hello')).stdout) as { background: Array<{ id: number; pinned?: boolean }> };
    expect(plan.background[0]).toMatchObject({ id: 1, pinned: true });
    expect((await run('unpin', '1')).stdout).toBe('unpinned 1\n');
    const after = JSON.parse((await run('plan', '--json', 'hello')).stdout) as { background: Array<{ id: number; pinned?: boolean }> };
    expect(after.background[0]!.id).toBe(52); // the newest leads again
    expect(after.background.some((b) => b.pinned)).toBe(false);
    const bad = await run('pin', '999');
    expect(bad).toMatchObject({ code: 1, stderr: 'aish: no memory item 999; nothing written (see aish memory list)\n' });
  });

  it('add --project stores the git root as scope; list --here shows only what applies', async () => {
    const home = tmpDir();
    const repo = join(home, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'sub'));
    const data = join(home, 'd');
    const add = await runAish(['--data-dir', data, 'memory', 'add', '--project', 'fact', 'uses', 'pnpm'], { home, cwd: join(repo, 'sub') });
    expect(add.stdout).toBe('added 1 (fact) for ~/repo\n'); // HOME is the test's home
    expect(JSON.parse(readFileSync(join(data, 'memory.jsonl'), 'utf8').trim().split('\n')[1]!)).toMatchObject({ scope: repo });
    expect((await runAish(['--data-dir', data, 'memory', 'list', '--here'], { home, cwd: repo })).stdout).toContain('uses pnpm');
    expect((await runAish(['--data-dir', data, 'memory', 'list', '--here'], { home, cwd: home })).stdout).toBe(
      'no memory items in ' + join(data, 'memory.jsonl') + ' — add one with: aish memory add fact "…"\n',
    );
  });

  it('memory: false in the config: every write refuses with exit 2 and writes nothing', async () => {
    const home = tmpDir();
    const data = join(home, 'd');
    writeFileSync(join(home, 'config.ts'), 'export default { memory: false };\n');
    for (const args of [
      ['add', 'fact', 'x'],
      ['forget', '1'],
      ['edit', '1', 'y'],
      ['pin', '1'],
      ['clear', '--yes'],
      ['compact'],
      ['list'],
      ['plan', 'x'],
      ['search', 'x'],
    ]) {
      const r = await runAish(['--config', join(home, 'config.ts'), '--data-dir', data, 'memory', ...args], { home, cwd: home });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        /^aish: memory is off in the config \(memory: false in .*config\.ts\) — nothing done; remove that line to use aish memory\n$/,
      );
    }
    expect(existsSync(join(data, 'memory.jsonl'))).toBe(false);
  });
});
