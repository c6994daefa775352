/**
 * Memory store benchmarks (issue 2, acceptance 10). Every figure is compared with a baseline measured
 * in the same run:
 *   1. load of a 100k-item memory.jsonl vs bare readFileSync + split + JSON.parse (goal ≤ 1.5×)
 *   2. add latency p50/p99 on that file vs a bare append + fdatasync (goal p50 ≤ baseline + 1 ms)
 *   3. cold `aish memory list` vs `node -e ''` (and with the 100k-item file)
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadMemory, MemoryStore } from '../src/memory/store';
import { fmt, median, ratio, stats, time, timeProcess } from './lib';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'aish.cjs');
const KINDS = ['fact', 'pref', 'context'] as const;

function makeFile(path: string, n: number): number {
  const start = Date.parse('2025-01-01T00:00:00Z');
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

export async function benchMemory(opts: { items?: number; adds?: number; coldRuns?: number } = {}): Promise<MemoryBenchResult> {
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
    rows.push([`load ${items.toLocaleString('en')} items (${(bytes / 2 ** 20).toFixed(1)} MiB)`, `${fmt(oursMs)} ms`, `${fmt(bareMs)} ms (readFileSync+split+JSON.parse)`, ratio(oursMs, bareMs)]);

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
    rows.push([`add (lock, tail re-read, append, fdatasync), ${adds}×`, `p50 ${fmt(a.p50)} ms, p99 ${fmt(a.p99)} ms`, `p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms (open+append+fdatasync)`, `+${fmt(a.p50 - b.p50)} ms p50`]);

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
    rows.push([`cold \`aish memory list --json\` (${(items + adds).toLocaleString('en')} items)`, `${fmt(median(bigT))} ms`, `${fmt(n)} ms (node -e '')`, `+${fmt(median(bigT) - n)} ms`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
