/**
 * `aish memory list` reads the index, the same read model the REPL uses: its `*` rows are the
 * [background] a turn would send (`plan --json`), and `list --json` through the index (built, and
 * with a tail appended after it) gives the same bytes as a full read. Listing never builds the index
 * by itself for `--json`.
 */
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const line = (id: number, day: number, extra: object) =>
  JSON.stringify({
    id,
    ts: `2026-01-${String(day).padStart(2, '0')}T10:00:00Z`,
    kind: 'fact',
    content: `note ${id} about the build`,
    ...extra,
  });

/** Items out of time order, of three origins, pinned and not, global and of another project, and tombstones. */
function lines(from: number, count: number): string[] {
  const out: string[] = [];
  for (let id = from; id < from + count; id++) {
    const extra = {
      ...(id % 5 === 0 && { kind: 'pref' }),
      ...(id % 7 === 0 && { pinned: true }),
      ...(id % 3 === 1 && { via: 'laptop' }),
      ...(id % 11 === 0 && { scope: '/elsewhere/project' }),
    };
    out.push(
      id % 13 === 0
        ? JSON.stringify({ id, ts: '2026-02-01T00:00:00Z', kind: 'forget', target: id - 4 })
        : line(id, 1 + ((id * 7) % 27), extra),
    );
  }
  return out;
}

describe('aish memory list reads the index (real CLI)', () => {
  it('marks the [background] a turn sends; --json through the index (and its tail) equals a full read', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 400 } };\n');
    const run = (...args: string[]) => runAish(['--config', cfg, '--data-dir', dir, 'memory', ...args], { home, cwd: home });
    const file = join(dir, 'memory.jsonl');
    const index = `${file}.index`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, lines(1, 60).join('\n') + '\n');

    const fullRead = async () => {
      const saved = existsSync(index);
      if (saved) rmSync(index);
      const r = await run('list', '--json');
      expect(existsSync(index)).toBe(false); // --json never builds it
      return r.stdout;
    };
    const cold = await fullRead();
    expect(JSON.parse(cold)).toHaveLength(60 - 4 - 4); // 4 tombstones, each forgetting an item

    // The text listing builds the index; its `*` rows are what plan says [background] holds.
    const list = await run('list');
    expect(list.stderr).toBe('');
    expect(existsSync(index)).toBe(true);
    const starred = list.stdout
      .split('\n')
      .filter((l) => l.startsWith('*'))
      .map((l) => Number(l.slice(1).trim().split(/\s+/)[0]));
    const plan = JSON.parse((await run('plan', '--json', 'anything')).stdout) as { background: Array<{ id: number }> };
    expect(starred.sort((a, b) => a - b)).toEqual(plan.background.map((b) => b.id).sort((a, b) => a - b));
    expect(starred.length).toBeGreaterThan(2);

    const warm = await run('list', '--json');
    expect(warm.stderr).toBe('');
    expect(warm.stdout).toBe(cold);
    expect((await run('list', '--json', '--here')).stdout).toBe(
      JSON.stringify(
        (JSON.parse(cold) as Array<{ scope?: string }>).filter((it) => it.scope === undefined),
        null,
        2,
      ) + '\n',
    );

    // Appended after the index was built: new items (older and newer), a forget and a pin of indexed items.
    appendFileSync(
      file,
      [
        ...lines(61, 12),
        JSON.stringify({ id: 73, ts: '2026-02-02T00:00:00Z', kind: 'forget', target: 2 }),
        JSON.stringify({ id: 74, ts: '2026-02-02T00:00:00Z', kind: 'pin', target: 3 }),
      ].join('\n') + '\n',
    );
    const tail = await run('list', '--json');
    expect(tail.stdout).toBe(await fullRead());
    expect(tail.stdout).not.toBe(cold);
  });
});
