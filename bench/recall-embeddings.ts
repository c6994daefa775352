/**
 * Hybrid recall's costs, against the test server's /v1/embeddings (which answers at once: what is
 * measured is aish's side: reading items, hashing, JSON, normalizing, appending with fsync).
 *   1. embedding throughput: a cold store embedded in the background, items/s and batches
 *   2. per turn: the cosine scan over every cached vector (Embeddings.nearest) at 10k and 100k, and
 *      a whole hybrid recall() against a words-only one, paired and alternating
 *   3. the cache at 100k: bytes on disk, and the process's array-buffer memory before and after load
 * Usage: node scripts/run-ts.mjs bench/recall-embeddings.ts [dim] [sizes…]   (default 768 10000 100000)
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONFIG, type AishConfig } from '../src/config/types';
import { vectorsPath } from '../src/memory/embed/vector-file';
import { MemorySession } from '../src/memory/session';
import { startFakeOpenAI } from '../test/helpers/openai-server';
import { fmt, machine, stats } from './lib';
import { makeQueries, makeWords, rng, sentence } from './recall';

const MB = 2 ** 20;

async function main(): Promise<void> {
  const [dimArg, ...sizeArgs] = process.argv.slice(2);
  const dim = Number(dimArg ?? 768);
  const sizes = sizeArgs.length ? sizeArgs.map(Number) : [10_000, 100_000];
  const server = await startFakeOpenAI();
  const rand = rng(7);
  const word = makeWords(rand);
  // The vocabulary spread over dim − 1 concepts: each text's vector has a few dimensions set.
  const vocab = new Set<string>();
  for (let i = 0; i < 200_000; i++) vocab.add(word());
  const concepts: Record<string, string[]> = {};
  [...vocab].forEach((w, i) => (concepts[`c${i % (dim - 1)}`] ??= []).push(w));
  server.embeddings.concepts = concepts;
  console.log(machine());
  console.log(`dim ${dim}; ${vocab.size} words in ${Object.keys(concepts).length} concepts`);
  for (const n of sizes) await bench(n, server, word, rand);
  await server.close();
}

async function bench(n: number, server: Awaited<ReturnType<typeof startFakeOpenAI>>, word: () => string, rand: () => number) {
  const dir = mkdtempSync(join(tmpdir(), 'aish-embed-bench-'));
  try {
    const path = join(dir, 'memory.jsonl');
    const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
    const t0 = Date.parse('2025-01-01T00:00:00Z');
    for (let i = 1; i <= n; i++)
      lines.push(
        JSON.stringify({ id: i, ts: new Date(t0 + i * 60_000).toISOString(), kind: 'fact', content: sentence(word, rand, 8, 28) }),
      );
    writeFileSync(path, lines.join('\n') + '\n');
    const memory = DEFAULT_CONFIG.memory as Exclude<AishConfig['memory'], false>;
    const cfg = (emb: boolean): AishConfig => ({
      ...DEFAULT_CONFIG,
      models: { local: { model: 'c', baseURL: server.url } },
      defaultModel: 'local',
      memory: { ...memory, recall: { ...memory.recall, ...(emb && { embeddings: { model: 'bench', timeoutMs: 5000 } }) } },
    });
    const open = (emb: boolean) =>
      new MemorySession(cfg(emb), path, { cwd: () => dir }, { notice: (_k, t) => console.log(t), changed: () => {} });

    // 1. throughput
    server.embeddings.reset();
    const a = open(true);
    await a.ready();
    let t = performance.now();
    await a.embedding();
    const secs = (performance.now() - t) / 1000;
    console.log(`n=${n}: embedded in ${secs.toFixed(1)} s = ${Math.round(n / secs)} items/s, ${server.embeddings.requests.length} batches`);
    a.close();

    // 3. the cache: disk, and memory once loaded by a new session
    global.gc?.();
    const before = process.memoryUsage();
    const b = open(true);
    await b.ready();
    t = performance.now();
    await b.embedding();
    const load = performance.now() - t;
    global.gc?.();
    const after = process.memoryUsage();
    console.log(
      `n=${n}: vectors file ${(statSync(vectorsPath(path)).size / MB).toFixed(1)} MiB; loaded (and checked against the store) in ${fmt(load)} ms; ` +
        `array buffers +${((after.arrayBuffers - before.arrayBuffers) / MB).toFixed(1)} MiB, heap +${((after.heapUsed - before.heapUsed) / MB).toFixed(1)} MiB, rss +${((after.rss - before.rss) / MB).toFixed(1)} MiB`,
    );

    // 2. per turn: the scan alone, then whole turns paired with words-only ones
    const emb = b.embeddings()!;
    const q = emb.file.vector(0);
    const scan: number[] = [];
    for (let i = 0; i < 30; i++) {
      const s0 = performance.now();
      emb.nearest(q, { minSimilarity: -1, limit: 10, usable: () => true });
      scan.push(performance.now() - s0);
    }
    const s = stats(scan);
    console.log(`n=${n}: cosine scan over ${emb.embedded} vectors p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms`);
    const words = open(false);
    await words.ready();
    words.prepareRecall();
    const queries = makeQueries(100, word, rand);
    const hybrid: number[] = [];
    const plain: number[] = [];
    for (const query of queries) {
      let s1 = performance.now();
      await b.recall(query);
      hybrid.push(performance.now() - s1);
      s1 = performance.now();
      await words.recall(query);
      plain.push(performance.now() - s1);
    }
    const h = stats(hybrid);
    const w = stats(plain);
    console.log(
      `n=${n}: recall() per turn, hybrid p50 ${fmt(h.p50)} / p99 ${fmt(h.p99)} ms; words only p50 ${fmt(w.p50)} / p99 ${fmt(w.p99)} ms (ratio of p50s ${(h.p50 / w.p50).toFixed(1)}×)`,
    );
    b.close();
    words.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
