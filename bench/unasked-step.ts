/**
 * What running every unasked read-only step in the sandbox costs: the same `git status` through
 * run_command's real path (classify, find the credential stores, scrub the environment, run),
 * sandboxed with nothing writable vs unsandboxed as read-only steps ran before. Paired runs,
 * alternating, in one process; a repository of a few hundred files in HOME.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findSandbox } from '../src/tools/sandbox';
import { RunCommandTool } from '../src/tools/run-command';
import { fmt, median, ratio } from './lib';

type Row = string[];

export async function benchUnaskedStep(opts: { runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 30;
  const sandbox = await findSandbox({ mode: 'auto', network: false });
  if (!sandbox) return { rows: [['unasked read-only step in the sandbox', 'no sandbox here', '', '']] };
  const base = mkdtempSync(join('/var/tmp', 'aish-bench-step-'));
  try {
    const work = join(base, 'work');
    mkdirSync(join(work, 'src'), { recursive: true });
    for (let i = 0; i < 300; i++) writeFileSync(join(work, 'src', `f${i}.ts`), `export const x${i} = ${i};\n`);
    execFileSync('git', ['init', '-q'], { cwd: work });
    execFileSync('git', ['add', '.'], { cwd: work });
    const tool = new RunCommandTool();
    const step = async (sandboxed: boolean): Promise<number> => {
      const t0 = performance.now();
      const call = await tool.prepare(JSON.stringify({ command: 'git status --short' }), { cwd: work });
      if ('error' in call) throw new Error(call.error);
      const signal = new AbortController().signal;
      const r = await call.run(sandboxed ? { cwd: work, signal, sandbox, unasked: true } : { cwd: work, signal });
      if (!r.status.startsWith('exit code 0')) throw new Error(`git status: ${r.status} ${r.output}`);
      return performance.now() - t0;
    };
    await step(true);
    await step(false);
    const boxed: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternating, so load on the machine falls on both alike.
      if (i % 2) {
        boxed.push(await step(true));
        plain.push(await step(false));
      } else {
        plain.push(await step(false));
        boxed.push(await step(true));
      }
    }
    const b = median(boxed);
    const p = median(plain);
    return {
      rows: [
        [
          `unasked read-only step (git status, ${sandbox.name}, median of ${runs} paired runs, ms)`,
          fmt(b),
          `${fmt(p)} unsandboxed`,
          ratio(b, p),
        ],
      ],
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
