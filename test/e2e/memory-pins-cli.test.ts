/**
 * `aish memory pin/unpin/list/plan/compact` with pinned items over the [background] budget, through
 * the built CLI: the most recently pinned are kept (an old item pinned last wins), and every pinned
 * item left out is named with reason `budget` — on pin and unpin, in list (text and JSON), in plan
 * (text and JSON), and still after a compaction.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

/** 80 characters: with the [background] header and each line's date, two lines fit in 300 characters, not three. */
const text = (name: string) => `${name} about the deploy pipeline `.padEnd(80, '.');

interface PlanEntry {
  id: number;
  pinned?: boolean;
  reason?: string;
  ranks?: { words?: number };
}

describe('pinned items over the budget (real CLI)', () => {
  it('keeps the most recently pinned and names every pin left out, with reason budget', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 300 } };\n');
    const run = (...args: string[]) => runAish(['--config', cfg, '--data-dir', join(home, 'd'), 'memory', ...args], { home, cwd: home });
    for (const name of ['Alpha', 'Bravo', 'Charlie']) expect((await run('add', 'fact', text(name))).code).toBe(0);
    expect((await run('add', 'fact', `Zulu kubernetes cluster notes ${'z'.repeat(300)}`)).code).toBe(0);

    // Pinned in the order 2, 3, 1: the oldest item, pinned last, wins over #2.
    expect(await run('pin', '2')).toMatchObject({ code: 0, stdout: 'pinned 2\n', stderr: '' });
    expect(await run('pin', '3')).toMatchObject({ code: 0, stdout: 'pinned 3\n', stderr: '' });
    const last = await run('pin', '1');
    expect(last).toMatchObject({ code: 0, stdout: 'pinned 1\n' });
    expect(last.stderr).toMatch(
      /^warning: pinned item left out of \[background\] \(budget\): #2 — pinned memory needs \d+ characters, more than memory\.injectMaxChars \(300\); the most recently pinned are kept/,
    );

    const list = async () => (await run('list')).stdout;
    const rows = await list();
    expect(rows).toMatch(/^\*\s+1\s.*Alpha .*\[pinned\]$/m);
    expect(rows).toMatch(/^\*\s+3\s.*Charlie .*\[pinned\]$/m);
    expect(rows).toMatch(/^ \s+2\s.*Bravo .*\[pinned, left out: budget\]$/m);
    expect(rows).toContain('\npinned but left out of [background] (budget): #2 — ');

    const items = JSON.parse((await run('list', '--json')).stdout) as Array<{ id: number; uid: string; pinned?: boolean }>;
    expect(items.map((i) => [i.id, i.pinned === true])).toEqual([
      [4, false],
      [3, true],
      [2, true],
      [1, true],
    ]);
    expect(items.every((i) => typeof i.uid === 'string' && i.uid.length === 26)).toBe(true);

    // An unrelated message: #2 is left out for budget (pinned), not below threshold.
    const plan = JSON.parse((await run('plan', '--json', 'good morning')).stdout) as { background: PlanEntry[]; left_out: PlanEntry[] };
    expect(plan.background.map((e) => [e.id, e.pinned])).toEqual([
      [1, true],
      [3, true],
    ]);
    expect(plan.left_out).toContainEqual({ id: 2, reason: 'budget', pinned: true });
    expect(plan.left_out).toContainEqual({ id: 4, reason: 'below threshold' });
    const planText = (await run('plan', 'good morning')).stdout;
    expect(planText).toMatch(/^ {2}budget +#2 \(fact\) Bravo .*\[pinned\]$/m);

    // Asked about: recalled items carry their words rank, and whether they are pinned.
    const asked = JSON.parse((await run('plan', '--json', 'kubernetes cluster')).stdout) as { recall: PlanEntry[] };
    expect(asked.recall).toEqual([expect.objectContaining({ id: 4, ranks: { words: 1 } })]);
    expect(asked.recall[0]!.pinned).toBeUndefined();
    const bravo = JSON.parse((await run('plan', '--json', 'Bravo deploy pipeline')).stdout) as { recall: PlanEntry[] };
    expect(bravo.recall).toEqual([expect.objectContaining({ id: 2, pinned: true, ranks: { words: 1 } })]);

    // Compaction folds the pin records into the items: the order they were pinned in is kept.
    expect((await run('compact')).code).toBe(0);
    expect(await list()).toMatch(/^ \s+2\s.*Bravo .*\[pinned, left out: budget\]$/m);

    // Unpinning #3 lets #2 in; unpinning nothing more leaves none out.
    expect(await run('unpin', '3')).toMatchObject({
      code: 0,
      stdout: 'unpinned 3\npinned #2 in [background] again (no longer left out for budget)\n',
      stderr: '',
    });
    expect(await list()).not.toContain('left out');
  });
});
