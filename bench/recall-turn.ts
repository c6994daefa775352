/**
 * Recall per turn as a turn pays for it, at 100k items: MemorySession.recall (sync with the file,
 * two index searches, the block) after a real start-up load of a 100k-item memory.jsonl.
 *   1. the index build after start-up memory is ready (store open + chunked build), and the
 *      longest main-thread stall meanwhile (what typing would feel)
 *   2. recall() p50/p99 over 300 varied messages with earlier turns (goal p50 ≤ 5 ms, p99 ≤ 20 ms)
 *   3. recall() right after another process appended an item (the tail-read sync path)
 *   4. heap growth of the recall index
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG } from '../src/config/types';
import { MemorySession } from '../src/memory/session';
import { MemoryStore } from '../src/memory/store';
import { fmt, stats } from './lib';
import { heapBytes, makeQueries, makeWords, rng, sentence } from './recall';

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
    const session = new MemorySession(config, path, { cwd: () => dir }, { notice: () => {}, changed: () => {} });
    await session.ready();
    const before = await heapBytes();

    // 1. the build, and the longest stall while it runs
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const t0 = performance.now();
    session.prepareRecall();
    await session.recall([{ text: 'warm up', weight: 1 }]);
    const build = performance.now() - t0;
    delay.disable();
    const stallMs = delay.max / 1e6;
    const after = await heapBytes();

    // 2. recall per turn
    const queries = makeQueries(300, word, rand);
    const times: number[] = [];
    let recalled = 0;
    for (const q of queries) {
      const t = performance.now();
      const r = await session.recall(q);
      times.push(performance.now() - t);
      if (r) recalled++;
    }
    const turn = stats(times);

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
          `recall index ready after start-up memory, ${k} (store open + chunked build)`,
          `${fmt(build)} ms`,
          '—',
          'off the first-frame path',
        ],
        [`longest main-thread stall during that, ${k}`, `${fmt(stallMs)} ms`, '—', 'one synchronous store open'],
        [
          `recall per turn (MemorySession.recall), ${k}, 300 messages with earlier turns: p50 / p99`,
          `${turn.p50.toFixed(2)} / ${turn.p99.toFixed(2)} ms`,
          'goal ≤ 5 / ≤ 20 ms',
          `${recalled}/300 turns recalled something`,
        ],
        [
          `recall per turn right after another aish appended, ${k}: p50 / p99`,
          `${sync.p50.toFixed(2)} / ${sync.p99.toFixed(2)} ms`,
          '—',
          'tail read + index update',
        ],
        [`recall index heap, ${k}`, `${((after - before) / 2 ** 20).toFixed(1)} MiB`, '—', ''],
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
