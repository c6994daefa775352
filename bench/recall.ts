/**
 * Memory recall benchmarks: the in-memory BM25 index that is the tests' reference ranking
 * (test/helpers/recall-reference.ts; aish itself ranks through its memory index) at 10k and 100k items of
 * synthetic text (30,000-word Zipf vocabulary, ~40% stop words, 8–28 words an item):
 *   1. build time, in one go and in chunks that yield to the event loop, against tokenizing the
 *      same items alone (the floor: every build must cut every item into terms)
 *   2. query latency p50/p99 over 300 varied weighted queries of 6–40 words (goal p50 ≤ 5 ms, p99 ≤ 20 ms)
 *   3. memory: the index's own estimate and the heap growth measured around a build
 */
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { RecallIndex, type QueryPart, type RecallDoc } from '../test/helpers/recall-reference';
import { terms } from '../src/util/terms';
import { fmt, median, ratio, stats, time } from './lib';

const VOCAB = 30_000;
const STOP_SHARE = 0.4;
const STOP = (
  'the a of to and in is it that for on with as was at be this are from or have an by not but ' +
  'we you they he she his her its our their my your can will would should do does did been has had'
).split(' ');

/** Deterministic PRNG (mulberry32), so every run measures the same text. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export function makeWords(rand: () => number): () => string {
  const letters = 'etaoinshrdlcumwfgypbvkjxqz';
  const vocab = new Set<string>();
  while (vocab.size < VOCAB) {
    let w = '';
    for (let n = 3 + Math.floor(rand() * 8); n > 0; n--) w += letters[Math.floor(letters.length * rand() ** 1.5)];
    if (!STOP.includes(w)) vocab.add(w);
  }
  const words = [...vocab];
  // Zipf (exponent 1): the word of rank r is drawn with probability ∝ 1/r.
  const cdf = new Float64Array(VOCAB);
  let sum = 0;
  for (let r = 0; r < VOCAB; r++) cdf[r] = sum += 1 / (r + 1);
  return () => {
    if (rand() < STOP_SHARE) return STOP[Math.floor(rand() * STOP.length)]!;
    const x = rand() * sum;
    let lo = 0;
    let hi = VOCAB - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
}

export function sentence(word: () => string, rand: () => number, min: number, max: number): string {
  const out: string[] = [];
  for (let n = min + Math.floor(rand() * (max - min + 1)); n > 0; n--) out.push(word());
  return out.join(' ');
}

function makeDocs(n: number, word: () => string, rand: () => number): RecallDoc[] {
  const start = Date.parse('2025-01-01T00:00:00Z');
  const span = 2 * 365 * 86_400_000;
  return Array.from({ length: n }, (_, i) => ({ id: i + 1, text: sentence(word, rand, 8, 28), time: start + Math.floor((span * i) / n) }));
}

/** A message (weight 1) and up to three earlier turns (0.5), 6–40 words in all. */
export function makeQueries(n: number, word: () => string, rand: () => number): QueryPart[][] {
  return Array.from({ length: n }, () => {
    let left = 6 + Math.floor(rand() * 35);
    const msg = Math.min(left, 6 + Math.floor(rand() * 10));
    const parts: QueryPart[] = [{ text: sentence(word, rand, msg, msg), weight: 1 }];
    left -= msg;
    for (let turns = Math.floor(rand() * 4); turns > 0 && left > 0; turns--) {
      const k = turns === 1 ? left : Math.min(left, 1 + Math.floor(rand() * left));
      parts.push({ text: sentence(word, rand, k, k), weight: 0.5 });
      left -= k;
    }
    return parts;
  });
}

/** Heap plus array buffers once garbage is gone; array buffers are freed after a GC, off the main thread, so wait for that. */
export async function heapBytes(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await setTimeout(50);
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const mib = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;

export async function benchRecall(opts: { sizes?: number[]; queries?: number; runs?: number } = {}): Promise<{ rows: string[][] }> {
  const rows: string[][] = [];
  for (const n of opts.sizes ?? [10_000, 100_000]) rows.push(...(await benchSize(n, opts.queries ?? 300, opts.runs ?? 5)));
  return { rows };
}

/** One size, in a call of its own so nothing of the previous size is still reachable when memory is measured. */
async function benchSize(n: number, queryCount: number, runs: number): Promise<string[][]> {
  const rows: string[][] = [];
  const rand = rng(n);
  const word = makeWords(rand);
  const docs = makeDocs(n, word, rand);
  const label = n.toLocaleString('en');
  const now = docs[docs.length - 1]!.time;

  // 1. memory held by one index (kept alive below, by the queries); first, before other builds leave garbage
  const before = await heapBytes();
  const index = await RecallIndex.build(docs, { chunk: n, pause: () => Promise.resolve() });
  const grown = (await heapBytes()) - before;

  // 2. build: whole, chunked, and tokenizing alone; interleaved so all see the same CPU state
  const tok: number[] = [];
  const whole: number[] = [];
  const chunked: number[] = [];
  let longestChunk = 0;
  for (let r = 0; r < runs; r++) {
    tok.push(time(() => docs.reduce((c, d) => c + terms(d.text).length, 0))[0]);
    const nop = () => Promise.resolve();
    (globalThis as { gc?: () => void }).gc?.();
    let t0 = performance.now();
    await RecallIndex.build(docs, { chunk: n, pause: nop });
    whole.push(performance.now() - t0);
    (globalThis as { gc?: () => void }).gc?.();
    let last = (t0 = performance.now());
    await RecallIndex.build(docs, {
      chunk: 2000,
      pause: () => {
        const t = performance.now();
        longestChunk = Math.max(longestChunk, t - last);
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            last = performance.now();
            resolve();
          }),
        );
      },
    });
    chunked.push(performance.now() - t0);
    // The last stretch: the final chunk and the repack that ends a build.
    longestChunk = Math.max(longestChunk, performance.now() - last);
  }
  const tokMs = median(tok);
  rows.push([
    `build ${label} items, one go`,
    `${fmt(median(whole))} ms`,
    `${fmt(tokMs)} ms (terms() of every item alone)`,
    ratio(median(whole), tokMs),
  ]);
  rows.push([
    `build ${label} items, chunks of 2,000 yielding via setImmediate`,
    `${fmt(median(chunked))} ms (longest chunk ${fmt(longestChunk)} ms)`,
    `${fmt(tokMs)} ms (terms() alone)`,
    ratio(median(chunked), tokMs),
  ]);

  // 3. queries: warm up, then time each one
  const queries = makeQueries(queryCount, word, rand);
  const accept = (id: number) => id % 10 !== 0;
  for (const q of queries.slice(0, 50)) index.search(q, { now, limit: 10, accept });
  const lat: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    hits += index.search(q, { now, limit: 10, accept }).length;
    lat.push(performance.now() - t0);
  }
  const s = stats(lat);
  rows.push([
    `index memory, ${label} items`,
    `${mib(grown)} (heap + array buffers grown by a build)`,
    `${mib(index.approxBytes())} (approxBytes, with the query scratch)`,
    '—',
  ]);
  rows.push([
    `query ${label} items, ${queryCount} queries of 6–40 words in weighted parts, top 10 (${(hits / queryCount).toFixed(1)} hits avg)`,
    `p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms`,
    'goal p50 ≤ 5 ms, p99 ≤ 20 ms',
    `${ratio(s.p50, 5)} / ${ratio(s.p99, 20)} of goal`,
  ]);
  return rows;
}
