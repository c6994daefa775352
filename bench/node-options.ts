/**
 * What node options on the command line cost at start-up, as CPU time rather than wall time (the
 * machine these run on is shared, and CPU time barely moves with its load). For each option set:
 * the CPU aish spends from spawn until the request for a prompt typed at its first frame reaches
 * the local server (all threads from /proc/PID/task/*\/schedstat, and the main thread alone), and
 * the CPU of a bare `node -e` that loads a few built-in modules, each against the same with no
 * options, median of alternating runs. The RSS the same options give after many turns is
 * `AISH_BENCH_NODE_ARGS='…' npm run bench -- rss-turns`.
 * Usage: npm run bench -- node-options   (AISH_BENCH_OPTION_SETS='--opt a;--opt b' for other sets)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI } from '../test/helpers/openai-server';
import { fmt, median, ratio } from './lib';
import { BIN, isolatedEnv, killAll, log, ptyRun, shebangOptions, type Row } from './startup';

const DEFAULT_SETS = ['--optimize-for-size', '--max-semi-space-size=1', '--max-old-space-size=1024', '--no-warnings'];

/** CPU time in ms of a process so far: [main thread, all threads]. */
function cpuMs(pid: number): [number, number] {
  let all = 0;
  let main = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    all += ns;
    if (Number(task) === pid) main += ns;
  }
  return [main / 1e6, all / 1e6];
}

/** CPU (user + system, ms) of `node <opts> -e <script>`, from the shell's own accounting of the child. */
function bareNodeCpu(opts: string[]): Promise<number> {
  const script = "for (const m of ['http', 'fs', 'stream', 'child_process', 'readline', 'worker_threads']) require('node:' + m)";
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" >/dev/null', 'bash', process.execPath, ...opts, '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      const [u, s] = err.trim().split('\n').at(-1)!.split(' ').map(Number);
      if (u === undefined || s === undefined || Number.isNaN(u + s)) reject(new Error(`no time from bash: ${err}`));
      else resolve((u + s) * 1000);
    });
  });
}

export async function benchNodeOptions(opts: { runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 10;
  const sets = (process.env.AISH_BENCH_OPTION_SETS?.split(';') ?? DEFAULT_SETS).map((s) => s.split(' ').filter(Boolean));
  const variants = [[], ...sets];
  const base = shebangOptions(BIN);
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-nodeopts-'));
  const server = await startFakeOpenAI();
  const aish: Array<Array<[main: number, all: number]>> = variants.map(() => []);
  const bare: number[][] = variants.map(() => []);
  try {
    for (let i = 0; i < runs; i++) {
      const order = variants.map((_, k) => k);
      // Every other run in reverse order, so no variant always follows the same one.
      for (const k of i % 2 ? order.reverse() : order) {
        server.reset();
        const run = ptyRun([...base, ...variants[k]!, BIN], { ...isolatedEnv(join(dir, 'home'), server.url), AISH_CAPTURE: 'off' });
        try {
          await run.waitFor('fast (gpt-4o-mini)');
          run.pty.write('hi\r');
          await server.waitForRequests(1, 30_000);
          aish[k]!.push(cpuMs(run.pty.pid));
        } finally {
          await run.stop();
        }
        bare[k]!.push(await bareNodeCpu(variants[k]!));
      }
      log(`node-options: ${i + 1}/${runs}`);
    }
    const mainMs = (k: number) => median(aish[k]!.map(([m]) => m));
    const allMs = (k: number) => median(aish[k]!.map(([, a]) => a));
    const rows: Row[] = variants
      .slice(1)
      .map((set, j) => [
        `start-up CPU, spawn → first prompt served, with \`${set.join(' ')}\` vs no option (main thread / all threads; bare \`node -e\` loading six built-ins), median of ${runs}`,
        `${fmt(mainMs(j + 1))} / ${fmt(allMs(j + 1))} ms (bare node ${fmt(median(bare[j + 1]!))} ms)`,
        `${fmt(mainMs(0))} / ${fmt(allMs(0))} ms (bare node ${fmt(median(bare[0]!))} ms)`,
        `${ratio(mainMs(j + 1), mainMs(0))} (bare node ${ratio(median(bare[j + 1]!), median(bare[0]!))})`,
      ]);
    return { rows };
  } finally {
    await killAll();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
