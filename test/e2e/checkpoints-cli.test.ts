/** `aish checkpoints …` and `:checkpoints` / `:restore` in plain mode, through the built CLI. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

// Meta commands never reach a model; the key only lets the engine start.
const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };

/** A home, a working tree with two checkpoints (before "step 1/2" and "step 2/2"), and the tree's state after step 2. */
async function setup(): Promise<{ home: string; work: string; cps: Checkpoints }> {
  const home = tmpDir('aish-cpcli-');
  const work = join(home, 'work');
  mkdirSync(join(work, 'src'), { recursive: true });
  writeFileSync(join(work, 'src', 'a.ts'), 'v1\n');
  writeFileSync(join(work, '.gitignore'), 'out/\n');
  const cps = new Checkpoints(checkpointsRoot(join(home, '.local', 'share', 'aish')), work);
  await cps.snapshot('echo v2 > src/a.ts', 'step 1/2');
  writeFileSync(join(work, 'src', 'a.ts'), 'v2\n');
  await cps.snapshot('rm -rf src', 'step 2/2');
  rmSync(join(work, 'src'), { recursive: true });
  writeFileSync(join(work, 'made.txt'), 'after\n');
  return { home, work, cps };
}

describe('aish checkpoints', () => {
  it('list: newest first, as rows or JSON', async () => {
    const { home, work } = await setup();
    const text = await runAish(['checkpoints', 'list'], { home, cwd: work });
    expect(text.code).toBe(0);
    const rows = text.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^1 {2}[0-9a-f]{8} {3}\ds {2}step 2\/2 {2}rm -rf src$/);
    expect(rows[1]).toMatch(/^2 {2}[0-9a-f]{8} {3}\ds {2}step 1\/2 {2}echo v2 > src\/a\.ts$/);
    expect(rows[2]).toBe(`2 checkpoints of ~/work, newest first — aish checkpoints restore [N|ID] --yes puts it back`);
    const json = await runAish(['checkpoints', 'list', '--json'], { home, cwd: work });
    const list = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(list.map((c) => [c.position, c.label, c.step, c.dir])).toEqual([
      [1, 'rm -rf src', 'step 2/2', work],
      [2, 'echo v2 > src/a.ts', 'step 1/2', work],
    ]);
    expect(list[0]!.id).toMatch(/^[0-9a-f]{8}$/);
  });

  it('restore needs --yes: without it, says what it would do and exits 2; with it, restores before the newest step', async () => {
    const { home, work } = await setup();
    const dry = await runAish(['checkpoints', 'restore'], { home, cwd: work });
    expect(dry.code).toBe(2);
    expect(dry.stderr).toMatch(
      new RegExp(
        `^aish: this would put ~/work back to checkpoint [0-9a-f]{8}, \\ds ago, before step 2/2 \\("rm -rf src"\\) — run again with --yes to confirm\\n$`,
      ),
    );
    expect(existsSync(join(work, 'src'))).toBe(false);
    const r = await runAish(['checkpoints', 'restore', '--yes'], { home, cwd: work });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^restored .* 1 file written back, 1 file removed — undo with aish checkpoints restore --yes \(the state before is checkpoint [0-9a-f]{8}\)\n$/,
    );
    expect(readFileSync(join(work, 'src', 'a.ts'), 'utf8')).toBe('v2\n');
    expect(existsSync(join(work, 'made.txt'))).toBe(false);
    const older = await runAish(['checkpoints', 'restore', '3', '--yes'], { home, cwd: work });
    expect(older.code).toBe(0);
    expect(readFileSync(join(work, 'src', 'a.ts'), 'utf8')).toBe('v1\n');
    const bad = await runAish(['checkpoints', 'restore', '9', '--yes'], { home, cwd: work });
    expect(bad).toMatchObject({ code: 2, stderr: 'aish: no checkpoint 9 — there are 4 (see aish checkpoints list)\n' });
  });

  it('a directory without checkpoints: list says so, restore refuses with exit 1', async () => {
    const home = tmpDir('aish-cpcli-');
    const list = await runAish(['checkpoints', 'list'], { home, cwd: home });
    expect(list).toMatchObject({ code: 0, stdout: `no checkpoints of ~ — aish takes one before each step that may write\n` });
    const r = await runAish(['checkpoints', 'restore', '--yes'], { home, cwd: home });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'aish: no checkpoints of ~ — nothing to restore\n' });
  });

  it('without git: one line, exit 1', async () => {
    const { home, work } = await setup();
    const r = await runAish(['checkpoints', 'list'], { home, cwd: work, env: { PATH: join(home, 'no-bin') } });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('aish: checkpoints need git, which was not found (git) — install git, or set safety.checkpoints: false\n');
  });
});

describe(':checkpoints and :restore in plain mode', () => {
  it('lists, asks [y/N] before restoring (Enter or n keeps everything), and restores by position', async () => {
    const { home, work } = await setup();
    const r = await runAish([], { home, cwd: work, env, input: ':checkpoints\n:restore\nn\n:restore 2\ny\n:checkpoints\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout.split('\n');
    expect(out[0]).toMatch(/^1 {2}([0-9a-f]{8}) {3}\ds {2}step 2\/2 {2}rm -rf src$/);
    expect(out[1]).toMatch(/^2 {2}([0-9a-f]{8}) {3}\ds {2}step 1\/2 {2}echo v2 > src\/a\.ts$/);
    expect(out[2]).toBe(`2 checkpoints of ~/work, newest first — :restore N puts it back as before step N`);
    expect(out[3]).toMatch(/^put .* back to checkpoint [0-9a-f]{8}, \ds ago, before step 2\/2 \("rm -rf src"\)\? \[y\/N\] $/);
    expect(out[4]).toBe('nothing restored');
    expect(out[5]).toMatch(/before step 1\/2 \("echo v2 > src\/a\.ts"\)\? \[y\/N\] $/);
    expect(out[6]).toMatch(
      /^restored .*: 1 file written back, 1 file removed — undo with :restore \(the state before is checkpoint [0-9a-f]{8}\)$/,
    );
    expect(out[7]).toMatch(/^1 {2}[0-9a-f]{8} {3}\ds {2}- {9}restore [0-9a-f]{8}$/);
    expect(readFileSync(join(work, 'src', 'a.ts'), 'utf8')).toBe('v1\n');
    expect(existsSync(join(work, 'made.txt'))).toBe(false);
  });

  it(':restore with no checkpoints or a bad argument is one line, and the shell goes on', async () => {
    const home = tmpDir('aish-cpcli-');
    const r = await runAish([], { home, cwd: home, env, input: ':restore\n:checkpoints extra\n:help restore\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('aish: no checkpoints of ~ — nothing to restore\naish: usage: :checkpoints [--all]\n');
    expect(r.stdout).toMatch(/^:restore \[N\|ID\] — put this directory back/);
  });
});
