/**
 * Recall per turn as a turn pays for it, at 100k items: MemorySession.recall (the index in step
 * with the file, two searches over it, the block) after a real start-up of a 100k-item memory.jsonl.
 *   1. start-up memory when the index must be built (the first start after the file changed), and
 *      when it exists (every other start): ready() and the first recall
 *   2. recall() p50/p99 over 300 varied messages with earlier turns (goal p50 ≤ 5 ms, p99 ≤ 20 ms),
 *      wall time and CPU time
 *   3. recall() right after another process appended an item (the tail read)
 *   4. the index's size: memory.jsonl.index on disk, and the heap and RSS a start-up with it adds
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG } from '../src/config/types';
import { MemorySession } from '../src/memory/session';
import { MemoryStore } from '../src/memory/store';
import { fmt, stats } from './lib';
import { makeQueries, makeWords, rng, sentence } from './recall';

export async function benchRecallTurn(n = 100_000): Promise<{ rows: string[][] }> {
  const dir = mkdtempSync(join(tmpdir(), 'aish-recall-turn-'));
  try {
    const rand = rng(11);
    const word = makeWords(rand);
    const path = join(dir, 'memory.jsonl');
    const start = Date.parse('2025-01-01T00:00:00Z');
    const lines: string[] = [];
    for (let i = 1; i <= n; i++) {
      const kind = i % 10 === 0 ? 'pref' : i % 3 === 0 ? 'context' : 'fact';
      lines.push(JSON.stringify({ id: i, ts: new Date(start + i * 60_000).toISOString(), kind, content: sentence(word, rand, 8, 28) }));
    }
    writeFileSync(path, lines.join('\n') + '\n');
    const config = structuredClone(DEFAULT_CONFIG);
    const open = () => new MemorySession(config, path, { cwd: () => dir }, { notice: () => {}, changed: () => {} });
    // 1. the first start builds the index; the next ones read it
    let t0 = performance.now();
    const first = open();
    await first.ready();
    const build = performance.now() - t0;
    first.close();
    const gc = (globalThis as { gc?: () => void }).gc;
    // Several passes, a tick apart: the build's buffers are freed only once their finalizers ran.
    const settle = async () => {
      for (let i = 0; i < 4; i++) {
        gc?.();
        await new Promise((r) => setImmediate(r));
      }
    };
    lines.length = 0;
    await settle();
    const before = process.memoryUsage();
    t0 = performance.now();
    const session = open();
    await session.ready();
    const ready = performance.now() - t0;
    session.prepareRecall();
    await session.recall([{ text: 'warm up', weight: 1 }]);
    const firstRecall = performance.now() - t0;
    await settle();
    const after = process.memoryUsage();
    const mib = (b: number) => (b / 2 ** 20).toFixed(1);
    const onDisk = statSync(`${path}.index`).size;
    const inMemory = `heap +${mib(after.heapUsed - before.heapUsed)} MiB, external + array buffers +${mib(after.external + after.arrayBuffers - before.external - before.arrayBuffers)} MiB, RSS +${mib(after.rss - before.rss)} MiB`;

    // 2. recall per turn
    const queries = makeQueries(300, word, rand);
    const times: number[] = [];
    // CPU time too (all of the process's threads, GC's helpers among them): on a loaded machine the
    // wall time's tail is mostly time spent waiting for a core, and this is not.
    const cpuTimes: number[] = [];
    let recalled = 0;
    for (const q of queries) {
      const c = process.cpuUsage();
      const t = performance.now();
      const r = await session.recall(q);
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpuTimes.push((used.user + used.system) / 1000);
      if (r) recalled++;
    }
    const turn = stats(times);
    const cpu = stats(cpuTimes);

    // 3. another aish appends, then a turn
    const other = MemoryStore.open(path);
    const syncTimes: number[] = [];
    for (let k = 0; k < 20; k++) {
      await other.add('fact', sentence(word, rand, 8, 28));
      const t = performance.now();
      await session.recall(queries[k]!);
      syncTimes.push(performance.now() - t);
    }
    const sync = stats(syncTimes);
    session.close();
    const k = `${n / 1000}k items`;
    return {
      rows: [
        [
          `start-up memory when the index must be built (first start after a change), ${k}`,
          `${fmt(build)} ms`,
          '—',
          'full read + index written',
        ],
        [`start-up memory with the index, ${k}: ready() / ready() + first recall`, `${fmt(ready)} / ${fmt(firstRecall)} ms`, '—', ''],
        [
          `the index at ${k} (memory.jsonl ${mib(statSync(path).size)} MiB): on disk / in memory after start-up and a first recall`,
          `${mib(onDisk)} MiB / ${inMemory}`,
          '—',
          gc ? 'after a full GC' : 'run with --expose-gc for steady figures',
        ],
        [
          `recall per turn (MemorySession.recall), ${k}, 300 messages with earlier turns: p50 / p99`,
          `${turn.p50.toFixed(2)} / ${turn.p99.toFixed(2)} ms`,
          'goal ≤ 5 / ≤ 20 ms',
          `${recalled}/300 turns recalled something`,
        ],
        [
          `recall per turn, ${k}: CPU time p50 / p99 (process.cpuUsage)`,
          `${cpu.p50.toFixed(2)} / ${cpu.p99.toFixed(2)} ms`,
          '—',
          'less of the load in it',
        ],
        [
          `recall per turn right after another aish appended, ${k}: p50 / p99`,
          `${sync.p50.toFixed(2)} / ${sync.p99.toFixed(2)} ms`,
          '—',
          'tail read and laid over the index',
        ],
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
