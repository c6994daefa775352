/**
 * What the after-the-fact check costs per step nobody approved: the checkpoint before it (taken
 * today) against the checkpoint plus the check (the walk of the tree before, the walk after, and
 * the comparison), for a step that adds one ordinary file, on trees of 200 and 10,000 small
 * files (git repositories, one file per 100 in each directory). Paired runs, alternating, in one
 * process; the checkpoints code driven directly, as a step would drive it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Checkpoints, checkpointsRoot } from '../src/checkpoints/checkpoints';
import { fmt, median, ratio } from './lib';

type Row = string[];

function tree(base: string, files: number): string {
  const work = join(base, `work-${files}`);
  for (let i = 0; i < files; i++) {
    const dir = join(work, 'src', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const x${i} = ${i};\n`);
  }
  execFileSync('git', ['init', '-q'], { cwd: work });
  return work;
}

export async function benchStepWatch(opts: { sizes?: number[]; runs?: number } = {}): Promise<{ rows: Row[] }> {
  const sizes = opts.sizes ?? [200, 10_000];
  const runs = opts.runs ?? 15;
  const base = mkdtempSync(join('/var/tmp', 'aish-bench-watch-'));
  const rows: Row[] = [];
  try {
    for (const n of sizes) {
      const work = tree(base, n);
      const cps = new Checkpoints(checkpointsRoot(join(base, `data-${n}`)), work);
      await cps.snapshot('first');
      let k = 0;
      // The step: one new ordinary file (kept), as most writing steps do.
      const step = () => writeFileSync(join(work, `out-${k++}.txt`), 'x\n');
      const today = async () => {
        const t0 = performance.now();
        await cps.snapshot('step');
        const t = performance.now() - t0;
        step();
        return t;
      };
      /** [before the step: snapshot + listing, after it: the check]. */
      const judged = async (): Promise<[number, number]> => {
        const t0 = performance.now();
        const w = await cps.watch('step');
        const t1 = performance.now();
        step();
        const t2 = performance.now();
        if ((await w!.check()) !== null) throw new Error('an ordinary new file was judged');
        return [t1 - t0, performance.now() - t2];
      };
      await today();
      await judged();
      const a: number[] = [];
      const before: number[] = [];
      const after: number[] = [];
      for (let i = 0; i < runs; i++) {
        const j = async () => {
          const [x, y] = await judged();
          before.push(x);
          after.push(y);
        };
        // Alternating, so load on the machine falls on both alike.
        if (i % 2) {
          a.push(await today());
          await j();
        } else {
          await j();
          a.push(await today());
        }
      }
      // One overwrite caught and put back (the check's full path), for scale.
      const w = await cps.watch('overwrite');
      writeFileSync(join(work, 'src', 'd0', 'f0.ts'), 'overwritten\n');
      const t0 = performance.now();
      const v = await w!.check();
      const putBack = performance.now() - t0;
      if (v?.changes.length !== 1) throw new Error('the overwrite was not caught');
      const [ja, jb, jc] = [median(a), median(before), median(after)];
      rows.push([
        `unasked step that writes, ${n.toLocaleString('en')} files: checkpoint + listing before it / the check after it (median of ${runs} paired runs, ms)`,
        `${fmt(jb)} / ${fmt(jc)} (+${fmt(jb + jc - ja)} in all); an overwrite caught and put back: ${fmt(putBack)} after the step`,
        `${fmt(ja)} checkpoint alone`,
        ratio(jb + jc, ja),
      ]);
    }
    return { rows };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
