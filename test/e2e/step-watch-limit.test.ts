/**
 * The sixth attack: the walks of the after-the-fact check stop at a limit (the project at 200,000
 * paths, HOME's configuration at 20,000). A step that made that many files first used to hide what it planted behind them:
 * the walk after it stopped before the planted file, and a new file it never listed was never
 * judged. Now, when the walk before was complete, the walk after goes on past the limit for new
 * paths that are judged. Files are planted before and after the flood, and beside and inside it, so
 * that one of them lies past the limit whatever order the file system lists them in.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { watchHome } from '../../src/checkpoints/outside';
import { tmpDir } from '../helpers/tmp';

describe("the project's walk past its limit", () => {
  it('a file that configures programs planted behind 200,000 new files is still judged and removed', { timeout: 240_000 }, async () => {
    const base = tmpDir('aish-walk-limit-');
    const work = join(base, 'work');
    mkdirSync(join(work, 'src'), { recursive: true });
    writeFileSync(join(work, 'src', 'index.ts'), 'export {};\n');
    execFileSync('git', ['init', '-q'], { cwd: work, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    const cps = new Checkpoints(checkpointsRoot(join(base, 'data')), work);
    const watch = await cps.watch('step');
    const plants = ['a/.npmrc', 'many/.envrc', 'many/z/.npmrc', 'z/.envrc'].map((p) => join(work, p));
    const plant = (p: string) => {
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, 'script-shell=./evil\n');
    };
    plant(plants[0]!);
    plant(plants[1]!);
    for (let d = 0; d < 201; d++) {
      mkdirSync(join(work, 'many', `d${d}`));
      for (let i = 0; i < 1000; i++) writeFileSync(join(work, 'many', `d${d}`, `f${i}`), '');
    }
    plant(plants[2]!);
    plant(plants[3]!);
    const v = await watch!.check();
    expect(v).not.toBeNull();
    expect(plants.filter((p) => existsSync(p))).toEqual([]);
    expect(v!.changes.map((c) => c.path).sort()).toEqual(['a/.npmrc', 'many/.envrc', 'many/z/.npmrc', 'z/.envrc']);
    // The new ordinary files are not judged: they stay.
    expect(existsSync(join(work, 'many', 'd200', 'f999'))).toBe(true);
  });
});

describe("HOME's configuration walk past its limit", () => {
  it('a file planted behind 20,000 new files is still judged and removed', { timeout: 120_000 }, async () => {
    const home = tmpDir('aish-walk-limit-');
    writeFileSync(join(home, '.bashrc'), '# mine\n');
    const watch = watchHome(home, []);
    const plants = ['.a_aliases', '.flood/0-first', '.flood/zz-last', '.z_aliases'].map((p) => join(home, p));
    writeFileSync(plants[0]!, 'evil\n');
    mkdirSync(join(home, '.flood'));
    writeFileSync(plants[1]!, 'evil\n');
    for (let i = 0; i < 20_050; i++) writeFileSync(join(home, '.flood', `f${i}`), '');
    writeFileSync(plants[2]!, 'evil\n');
    writeFileSync(plants[3]!, 'evil\n');
    const v = await watch.check();
    expect(v).not.toBeNull();
    expect(plants.filter((p) => existsSync(p))).toEqual([]);
    expect(v!.changes.filter((c) => /aliases|first|last/.test(c.path)).length).toBe(4);
    expect(existsSync(join(home, '.bashrc'))).toBe(true);
  });
});
