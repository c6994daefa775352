/**
 * What checking a rewrite costs: aish's writer (write loop, fsync, fstat size check, rename,
 * directory fsync) against write-file-atomic (one write, fsync, rename) followed by the directory
 * fsync memory's rewrites added to it, replacing a 10 KiB and a 1 MiB file, alternating in one
 * process on the same disk. Prints medians and the ratio.
 * `node scripts/run-ts.mjs bench/atomic-write.ts [rounds]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import writeFileAtomic from 'write-file-atomic';
import { writeFileAtomicSync } from '../src/util/atomic-write';
import { fsyncDir } from '../src/util/fs-safe';
import { fmt, machine, median } from './lib';

const rounds = Number(process.argv[2] ?? 40);
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'aish-bench-aw-'));
try {
  console.log(machine());
  for (const size of [10 * 1024, 1024 * 1024]) {
    const data = Buffer.alloc(size, 'x');
    const path = join(dir, `f${size}`);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const [list, write] of (i % 2
        ? [
            [ours, 0],
            [theirs, 1],
          ]
        : [
            [theirs, 1],
            [ours, 0],
          ]) as Array<[number[], number]>) {
        const t0 = performance.now();
        if (write === 0) writeFileAtomicSync(path, data, { mode: 0o600 });
        else {
          writeFileAtomic.sync(path, data, { mode: 0o600 });
          fsyncDir(dir);
        }
        list.push(performance.now() - t0);
      }
    }
    const a = median(ours);
    const b = median(theirs);
    console.log(
      `${size / 1024} KiB: aish ${fmt(a)} ms, write-file-atomic + directory fsync ${fmt(b)} ms (median of ${rounds}); ratio ${(a / b).toFixed(2)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
