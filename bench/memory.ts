/**
 * Memory store benchmarks (issue 2, acceptance 10). Every figure is compared with a baseline measured
 * in the same run:
 *   1. load of a 100k-item memory.jsonl vs bare readFileSync + split + JSON.parse (goal ≤ 1.5×)
 *   2. add latency p50/p99 on that file vs a bare append + fdatasync (goal p50 ≤ baseline + 1 ms)
 *   3. cold `aish memory list` vs `node -e ''` (and with the 100k-item file)
 *   4. at 100k and 1M items (issue 15), alternating runs, medians: cold `aish memory add` vs a bare
 *      node script that opens, appends one line and fdatasyncs (goal ≤ 1.5×, whatever the size);
 *      `aish memory list --json` vs a bare parse + print (goal ≤ 1.3×), and its peak RSS vs a bare
 *      parse's (goal ≤ 1×). Peak RSS comes from each process itself (a preload that writes
 *      its VmHWM at exit).
 */
import { closeSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadMemory, MemoryStore } from '../src/memory/store';
import { fmt, median, ratio, stats, time, timeProcess } from './lib';

const ROOT = resolve(import.meta.dirname, '..');
// AISH_BENCH_BIN: another build's launcher, for a before/after comparison on the same machine.
const BIN = process.env.AISH_BENCH_BIN ?? join(ROOT, 'bin', 'aish.cjs');
const KINDS = ['fact', 'pref', 'context'] as const;

function makeFile(path: string, n: number): number {
  // A minute apart from 2020 on: even 1M items end in the past, so the file stays in time order.
  const start = Date.parse('2020-01-01T00:00:00Z');
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  for (let i = 1; i <= n; i++) {
    lines.push(
      JSON.stringify({
        id: i,
        ts: new Date(start + i * 60_000).toISOString(),
        kind: KINDS[i % 3],
        content: `Memory item ${i}: the user prefers concise answers, uses pnpm in project ${i % 97}, and deploys with make release on Fridays.`,
        ...(i % 5 === 0 && { tags: ['project', `p${i % 97}`] }),
      }),
    );
  }
  const text = lines.join('\n') + '\n';
  writeFileSync(path, text, { mode: 0o600 });
  return text.length;
}

export interface MemoryBenchResult {
  rows: Array<[string, string, string, string]>;
}

export async function benchMemory(
  opts: { items?: number; adds?: number; coldRuns?: number; scale?: number[]; scaleRuns?: number } = {},
): Promise<MemoryBenchResult> {
  const items = opts.items ?? 100_000;
  const adds = opts.adds ?? 1000;
  const coldRuns = opts.coldRuns ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-'));
  const rows: MemoryBenchResult['rows'] = [];
  try {
    const path = join(dir, 'memory.jsonl');
    const bytes = makeFile(path, items);

    // 1. load vs bare parse, interleaved so both see the same cache and CPU state
    const bare: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < 7; i++) {
      bare.push(
        time(() => {
          const out: unknown[] = [];
          for (const l of readFileSync(path, 'utf8').split('\n')) if (l) out.push(JSON.parse(l));
          return out.length;
        })[0],
      );
      ours.push(time(() => loadMemory(path).items.length)[0]);
    }
    const [bareMs, oursMs] = [median(bare), median(ours)];
    rows.push([
      `load ${items.toLocaleString('en')} items (${(bytes / 2 ** 20).toFixed(1)} MiB)`,
      `${fmt(oursMs)} ms`,
      `${fmt(bareMs)} ms (readFileSync+split+JSON.parse)`,
      ratio(oursMs, bareMs),
    ]);

    // 2. add latency on the big file vs bare append + fdatasync on a sibling file
    const barePath = join(dir, 'bare.jsonl');
    const bareLat: number[] = [];
    const line = Buffer.from(JSON.stringify({ id: 1, ts: new Date().toISOString(), kind: 'fact', content: 'x'.repeat(100) }) + '\n');
    for (let i = 0; i < adds; i++) {
      const t0 = performance.now();
      const fd = openSync(barePath, 'a', 0o600);
      writeSync(fd, line);
      fdatasyncSync(fd);
      closeSync(fd);
      bareLat.push(performance.now() - t0);
    }
    const store = MemoryStore.open(path);
    const addLat: number[] = [];
    for (let i = 0; i < adds; i++) {
      const t0 = performance.now();
      await store.add('fact', `benchmark item ${i} ${'x'.repeat(80)}`);
      addLat.push(performance.now() - t0);
    }
    const b = stats(bareLat);
    const a = stats(addLat);
    rows.push([
      `add (lock, tail re-read, append, fdatasync), ${adds}×`,
      `p50 ${fmt(a.p50)} ms, p99 ${fmt(a.p99)} ms`,
      `p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms (open+append+fdatasync)`,
      `+${fmt(a.p50 - b.p50)} ms p50`,
    ]);

    // 3. cold start of `aish memory list` vs bare node, alternating runs
    const small = join(dir, 'small');
    const env = { ...process.env, AISH_DATA_DIR: small, XDG_CONFIG_HOME: join(dir, 'noconfig') };
    await timeProcess(process.execPath, [BIN, 'memory', 'add', 'fact', 'warm-up item'], env);
    const nodeT: number[] = [];
    const listT: number[] = [];
    const bigT: number[] = [];
    const bigEnv = { ...env, AISH_DATA_DIR: dir };
    for (let i = 0; i < coldRuns; i++) {
      nodeT.push(await timeProcess(process.execPath, ['-e', '']));
      listT.push(await timeProcess(process.execPath, [BIN, 'memory', 'list'], env));
      bigT.push(await timeProcess(process.execPath, [BIN, 'memory', 'list', '--json'], bigEnv));
    }
    const n = median(nodeT);
    rows.push(['cold `aish memory list` (1 item)', `${fmt(median(listT))} ms`, `${fmt(n)} ms (node -e '')`, ratio(median(listT), n)]);
    rows.push([
      `cold \`aish memory list --json\` (${(items + adds).toLocaleString('en')} items)`,
      `${fmt(median(bigT))} ms`,
      `${fmt(n)} ms (node -e '')`,
      `+${fmt(median(bigT) - n)} ms`,
    ]);

    for (const size of opts.scale ?? [100_000, 1_000_000]) rows.push(...(await atScale(dir, size, opts.scaleRuns ?? 5)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}

const FLOOR_ADD = `import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
const fd = openSync(process.argv[2], 'a', 0o600);
writeSync(fd, JSON.stringify({ id: 1, ts: new Date().toISOString(), kind: 'fact', content: 'floor ' + process.pid }) + '\\n');
fdatasyncSync(fd);
closeSync(fd);`;
const FLOOR_PARSE = `import { readFileSync } from 'node:fs';
const out = [];
for (const l of readFileSync(process.argv[2], 'utf8').split('\\n')) if (l) out.push(JSON.parse(l));
if (process.argv[3] === 'print') process.stdout.write(JSON.stringify(out.filter((r) => r.id).reverse(), null, 2) + '\\n');`;
// VmHWM, not resourceUsage().maxRSS: Linux carries the parent's RSS at fork into a child's maxRSS,
// so every child of this (large) benchmark process would report at least the benchmark's size.
const PEAK = `const fs = require('node:fs');
process.on('exit', () => {
  const hwm = process.platform === 'linux' && /VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  fs.writeFileSync(process.env.PEAK_FILE, hwm ? hwm[1] : String(process.resourceUsage().maxRSS));
});`;

/** Wall time (ms) and peak RSS (MB) of one child run. */
async function measured(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; mb: number }> {
  const peakFile = join(dir, 'peak');
  const ms = await timeProcess(process.execPath, args, { ...env, NODE_OPTIONS: `--require ${join(dir, 'peak.cjs')}`, PEAK_FILE: peakFile });
  return { ms, mb: Number(readFileSync(peakFile, 'utf8')) / 1024 };
}

/** `aish memory add` and `list --json` on an n-item file, each against its floor in alternating runs. */
async function atScale(dir: string, n: number, runs: number): Promise<MemoryBenchResult['rows']> {
  const data = join(dir, `scale-${n}`);
  mkdirSync(data, { recursive: true });
  const file = join(data, 'memory.jsonl');
  const bytes = makeFile(file, n);
  writeFileSync(join(dir, 'floor-add.mjs'), FLOOR_ADD);
  writeFileSync(join(dir, 'floor-parse.mjs'), FLOOR_PARSE);
  writeFileSync(join(dir, 'peak.cjs'), PEAK);
  const env = { ...process.env, AISH_DATA_DIR: data, XDG_CONFIG_HOME: join(dir, 'noconfig') };
  const label = `${n.toLocaleString('en')} items (${(bytes / 2 ** 20).toFixed(0)} MiB)`;
  const first = await measured(dir, [BIN, 'memory', 'add', 'fact', 'first add: builds the index'], env);
  const floorAdd: number[] = [];
  const add: number[] = [];
  const addMb: number[] = [];
  for (let i = 0; i < runs; i++) {
    floorAdd.push((await measured(dir, [join(dir, 'floor-add.mjs'), join(dir, 'floor.jsonl')], env)).ms);
    const a = await measured(dir, [BIN, 'memory', 'add', 'fact', `bench add ${i} ${Date.now()}`], env);
    add.push(a.ms);
    addMb.push(a.mb);
  }
  const [fa, aa] = [median(floorAdd), median(add)];
  const rows: MemoryBenchResult['rows'] = [
    [
      `cold \`aish memory add\`, ${label}`,
      `${fmt(aa)} ms, ${median(addMb).toFixed(0)} MB peak (first add, index built: ${fmt(first.ms)} ms)`,
      `${fmt(fa)} ms (node: open, append, fdatasync)`,
      ratio(aa, fa),
    ],
  ];
  const print: number[] = [];
  const parseMb: number[] = [];
  const list: number[] = [];
  const listMb: number[] = [];
  for (let i = 0; i < runs; i++) {
    print.push((await measured(dir, [join(dir, 'floor-parse.mjs'), file, 'print'], env)).ms);
    parseMb.push((await measured(dir, [join(dir, 'floor-parse.mjs'), file], env)).mb);
    const l = await measured(dir, [BIN, 'memory', 'list', '--json'], env);
    list.push(l.ms);
    listMb.push(l.mb);
  }
  const [pp, ll] = [median(print), median(list)];
  rows.push([
    `cold \`aish memory list --json\`, ${label}`,
    `${fmt(ll)} ms`,
    `${fmt(pp)} ms (node: readFileSync+split+JSON.parse, stringify, print)`,
    ratio(ll, pp),
  ]);
  rows.push([
    `peak RSS of \`aish memory list --json\`, ${label}`,
    `${median(listMb).toFixed(0)} MB`,
    `${median(parseMb).toFixed(0)} MB (node: readFileSync+split+JSON.parse)`,
    ratio(median(listMb), median(parseMb)),
  ]);
  rmSync(data, { recursive: true, force: true });
  return rows;
}
