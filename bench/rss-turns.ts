/**
 * Memory over a long live session: the real REPL in a PTY answers TURNS questions from the local
 * fake server, and the resident set of the aish process (VmRSS in /proc/PID/status) is sampled every
 * 10 turns. Each answer is a few hundred words of Markdown with a list and two code blocks, different
 * on every turn, streamed in token-sized pieces, so finished turns that stay in memory show.
 *
 * Reported: RSS after the last turn (goal ≤ 120 MB), the growth per turn from turn 100 on (least
 * squares over the samples, goal ≤ 20 KB; the plain difference is shown beside it), against the
 * floor measured in the same process: the RSS at its first prompt.
 * Usage: npm run bench -- rss-turns   (AISH_BENCH_TURNS=N for another number of turns;
 * AISH_BENCH_SNAPSHOT_AT=100,500 with AISH_BENCH_NODE_OPTIONS=--heapsnapshot-signal=SIGUSR2 writes
 * heap snapshots of aish at those turns, into the repository's folder; AISH_BENCH_CHUNK=N streams N
 * characters an event instead of 4, to tell per-event costs from per-character ones; heap spaces and
 * allocation profiles at those turns: bench/heap-probe.cjs)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../test/helpers/openai-server';
import { BIN, isolatedEnv, killAll, log, ptyRun, shebangOptions, type Row } from './startup';

const TURNS = Number(process.env.AISH_BENCH_TURNS ?? 500);
const SNAPSHOT_AT = new Set((process.env.AISH_BENCH_SNAPSHOT_AT ?? '').split(',').filter(Boolean).map(Number));
/** Growth is measured from this turn on: by then every lazy module (SDK, Markdown, tokenizer) is loaded. */
const STEADY_FROM = 100;
const SAMPLE_EVERY = 10;
const IDLE_S = Number(process.env.AISH_BENCH_IDLE_S ?? 0);

/** CPU seconds (user + system) a process has used, from /proc/PID/stat (clock ticks of 1/100 s). */
function cpuS(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** VmRSS of a process in MB. */
function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

const WORDS =
  'the a shell command file memory session answer model stream token buffer render terminal prompt history line block code value error result output input process signal cache index'.split(
    ' ',
  );

/** Prose that differs from turn to turn (a real answer never repeats the last one). */
function prose(n: number, seed: number, words: number): string {
  const out: string[] = [];
  let x = (n * 7919 + seed * 104729) >>> 0;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const w = WORDS[x % WORDS.length]!;
    out.push(i % 17 === 5 ? `**${w}**` : i % 23 === 11 ? `\`${w}${n}\`` : w);
  }
  return `${out.join(' ')}.`;
}

/** ~330 words (~2.3 KB) of Markdown: a heading, paragraphs, a list, TypeScript and shell blocks, and a marker unique to the turn at the end. */
export function answer(n: number): string {
  return [
    `## Turn ${n}`,
    prose(n, 1, 90),
    `- first point of turn ${n}: ${prose(n, 2, 12)}\n- second point: ${prose(n, 3, 10)}\n- third point`,
    '```ts',
    `export function turn${n}(input: string): number {\n  const parts = input.split(' ').filter(Boolean);\n  return parts.length * ${n};\n}`,
    '```',
    prose(n, 4, 90),
    '```sh',
    `grep -rn "turn ${n}" src | head -${(n % 20) + 1}`,
    '```',
    prose(n, 5, 80),
    `Done with turn ${n} zq${n}x.`,
  ].join('\n\n');
}

const lastUser = (req: RecordedRequest): string => {
  const msgs = (req.body?.messages as Array<{ role: string; content: unknown }> | undefined) ?? [];
  const u = [...msgs].reverse().find((m) => m.role === 'user');
  return typeof u?.content === 'string' ? u.content : '';
};

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}

export async function benchRssTurns(opts: { turns?: number } = {}): Promise<{ rows: Row[] }> {
  const turns = opts.turns ?? TURNS;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-rss-'));
  let server: FakeOpenAI | undefined;
  try {
    // 4 characters per SSE chunk: about one token each, as a real model streams.
    server = await startFakeOpenAI({
      defaultReply: (req) => ({
        text: answer(Number(/\d+/.exec(lastUser(req))?.[0] ?? 0)),
        chunkSize: Number(process.env.AISH_BENCH_CHUNK ?? 4),
      }),
    });
    const env = isolatedEnv(join(dir, 'home'), server.url);
    if (process.env.AISH_BENCH_NODE_OPTIONS) env.NODE_OPTIONS = process.env.AISH_BENCH_NODE_OPTIONS; // e.g. a heap snapshot signal
    if (process.env.AISH_CAPTURE) env.AISH_CAPTURE = process.env.AISH_CAPTURE;
    for (const k of ['AISH_HEAP_PROBE_OUT', 'AISH_HEAP_PROBE_SAMPLE']) if (process.env[k]) env[k] = process.env[k]; // bench/heap-probe.cjs
    // Node as a user's `aish` starts it: with the options on the launcher's shebang line, if any;
    // AISH_BENCH_NODE_ARGS adds more for an experiment (e.g. --max-semi-space-size=2).
    const bin = process.env.AISH_BENCH_BIN ?? BIN; // another checkout's launcher, for a before/after
    const nodeArgs = [...shebangOptions(bin), ...(process.env.AISH_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
    if (nodeArgs.length) log(`rss-turns: node ${nodeArgs.join(' ')}`);
    const run = ptyRun([...nodeArgs, bin], env);
    try {
      await run.waitFor('fast (gpt-4o-mini)');
      await new Promise((r) => setTimeout(r, 1000)); // start-up background work settles first
      const floor = rssMB(run.pty.pid);
      const cpu0 = cpuS(run.pty.pid);
      const t0 = Date.now();
      const samples: Array<[number, number]> = [];
      for (let i = 1; i <= turns; i++) {
        const from = run.chars();
        run.pty.write(`question ${i}\r`);
        await run.waitFor(`zq${i}x.`, { from, timeoutMs: 30_000 });
        if (i % SAMPLE_EVERY === 0 || i === turns) {
          const rss = rssMB(run.pty.pid);
          samples.push([i, rss]);
          if (i % 100 === 0 || i === 10) log(`rss-turns: ${i}/${turns}, RSS ${rss.toFixed(1)} MB`);
        }
        if (SNAPSHOT_AT.has(i)) {
          await new Promise((r) => setTimeout(r, 300)); // the turn's last frame is drawn
          run.pty.kill('SIGUSR2');
          await new Promise((r) => setTimeout(r, 5000)); // the snapshot is written while aish stands still
          log(`rss-turns: heap snapshot asked for at turn ${i}`);
        }
      }
      const seconds = (Date.now() - t0) / 1000;
      const cpu = cpuS(run.pty.pid) - cpu0;
      await new Promise((r) => setTimeout(r, 1000));
      const end = rssMB(run.pty.pid);
      const idle: string[] = [];
      for (let waited = 1; waited < IDLE_S; waited += 1) {
        await new Promise((r) => setTimeout(r, 1000));
        if ((waited + 1) % 5 === 0) idle.push(`${waited + 1} s: ${rssMB(run.pty.pid).toFixed(1)}`);
      }
      if (idle.length) log(`rss-turns: idle after the last turn, RSS (MB) ${idle.join(', ')}`);
      const from = Math.min(STEADY_FROM, Math.floor(turns / 5));
      const steady = samples.filter(([t]) => t >= from);
      const fitKB = slope(steady) * 1024;
      const at = steady[0];
      const diffKB = at && turns > at[0] ? ((end - at[1]) / (turns - at[0])) * 1024 : 0;
      log(
        `rss-turns: ${turns} turns in ${seconds.toFixed(1)} s (aish's CPU ${cpu.toFixed(1)} s), ${(run.bytes() / turns / 1024).toFixed(1)} KB written per turn; RSS ${floor.toFixed(1)} → ${end.toFixed(1)} MB`,
      );
      return {
        rows: [
          [
            `RSS after ${turns} live turns (~2.3 KB Markdown answers with code)`,
            `${end.toFixed(1)} MB; growth after turn ${from}: ${fitKB.toFixed(1)} KB/turn (fit), ${diffKB.toFixed(1)} KB/turn (difference); CPU ${((cpu / turns) * 1000).toFixed(1)} ms/turn`,
            `${floor.toFixed(1)} MB at the first prompt`,
            `+${(end - floor).toFixed(1)} MB`,
          ],
        ],
      };
    } finally {
      if (process.env.AISH_BENCH_RAW) writeFileSync(process.env.AISH_BENCH_RAW, run.raw()); // e.g. with --trace-gc in AISH_BENCH_NODE_OPTIONS
      await run.stop();
    }
  } finally {
    await killAll();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
