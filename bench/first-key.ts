/**
 * "First key echoed" and "first settled frame" in a real PTY, each as a ratio to a floor measured
 * in the same run, alternating (issue 15). The floor is a bare `node -e` that turns raw mode on,
 * prints the prompt and echoes keys. A key is typed the moment the prompt `›` shows; the figure is
 * spawn → that key visible after the prompt. "Settled": spawn → the last output before ~150 ms of
 * silence (the quiet period itself not counted), with no key typed — measured for a start like the
 * one before it (same home and directory: the frame cache holds the last start's settled frame) and
 * for the very first start in a fresh home.
 * Usage: node scripts/run-ts.mjs bench/run.ts first-key   (AISH_BENCH_BIN=… measures another build)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI, type FakeOpenAI } from '../test/helpers/openai-server';
import { fmt, median, ratio } from './lib';
import { BIN, isolatedEnv, killAll, log, ptyRun, writeMemory, type PtyRun, type Row } from './startup';

const FLOOR =
  "process.stdin.setRawMode(true);process.stdout.write('\\u203a ');process.stdin.on('data',d=>{if(d[0]===4)process.exit();process.stdout.write(d)})";
const KEY = 'Z'; // nowhere in the status line
const QUIET_MS = 150;
const SMALL_ITEMS = 1000; // ~150 KB: read before the first frame (repl-front.ts SMALL_MEMORY_BYTES)

function args(which: 'aish' | 'floor'): string[] {
  return which === 'aish' ? [process.env.AISH_BENCH_BIN ?? BIN] : ['-e', FLOOR];
}

/** spawn → the key typed at the prompt is visible. */
async function firstKey(which: 'aish' | 'floor', home: string, url: string): Promise<number> {
  const run = ptyRun(args(which), isolatedEnv(home, url));
  try {
    await run.waitFor('›');
    const mark = run.chars();
    run.pty.write(KEY);
    return (await run.waitFor(KEY, { from: mark })) - run.t0;
  } finally {
    await run.stop();
  }
}

/** spawn → the last write before QUIET_MS of silence, once the prompt (and for aish its status line) is on screen. */
async function settled(which: 'aish' | 'floor', home: string, url: string): Promise<number> {
  const run: PtyRun = ptyRun(args(which), isolatedEnv(home, url));
  try {
    await run.waitFor(which === 'aish' ? 'fast (gpt-4o-mini)' : '›');
    while (performance.now() - run.lastDataAt() < QUIET_MS) await new Promise((r) => setTimeout(r, 5));
    return run.lastDataAt() - run.t0;
  } finally {
    await run.stop();
  }
}

export async function benchFirstKey(opts: { runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 7;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-firstkey-'));
  let server: FakeOpenAI | undefined;
  const rows: Row[] = [];
  try {
    server = await startFakeOpenAI();
    await firstKey('aish', join(dir, 'warm-a'), server.url);
    await firstKey('floor', join(dir, 'warm-f'), server.url);
    await settled('aish', join(dir, 'as-again'), server.url); // the start before: leaves its settled frame
    const s = {
      aishKey: [] as number[],
      floorKey: [] as number[],
      aishSettled: [] as number[],
      aishFresh: [] as number[],
      aishSmall: [] as number[],
      floorSettled: [] as number[],
    };
    for (let i = 0; i < runs; i++) {
      s.aishKey.push(await firstKey('aish', join(dir, `ak-${i}`), server.url));
      s.floorKey.push(await firstKey('floor', join(dir, `fk-${i}`), server.url));
      s.aishSettled.push(await settled('aish', join(dir, 'as-again'), server.url));
      s.aishFresh.push(await settled('aish', join(dir, `as-${i}`), server.url));
      writeMemory(join(dir, `am-${i}`), SMALL_ITEMS);
      s.aishSmall.push(await settled('aish', join(dir, `am-${i}`), server.url));
      s.floorSettled.push(await settled('floor', join(dir, `fs-${i}`), server.url));
      log(
        `first key ${i + 1}/${runs}: aish ${fmt(s.aishKey.at(-1)!)} ms, floor ${fmt(s.floorKey.at(-1)!)} ms; settled aish ${fmt(s.aishSettled.at(-1)!)} ms (fresh home ${fmt(s.aishFresh.at(-1)!)} ms, with ${SMALL_ITEMS} items ${fmt(s.aishSmall.at(-1)!)} ms), floor ${fmt(s.floorSettled.at(-1)!)} ms`,
      );
    }
    const [ak, fk, as, af, am, fs] = [
      median(s.aishKey),
      median(s.floorKey),
      median(s.aishSettled),
      median(s.aishFresh),
      median(s.aishSmall),
      median(s.floorSettled),
    ];
    rows.push([
      `first key echoed, typed when the prompt shows (PTY, median of ${runs})`,
      `${fmt(ak)} ms`,
      `${fmt(fk)} ms (node -e: raw mode, prompt, echo)`,
      ratio(ak, fk),
    ]);
    rows.push([
      `first settled frame, a start like the last one (last output before ${QUIET_MS} ms of quiet, median of ${runs})`,
      `${fmt(as)} ms`,
      `${fmt(fs)} ms (same floor, its prompt)`,
      ratio(as, fs),
    ]);
    rows.push([
      `first settled frame, the first start in a fresh home (no frame cache yet)`,
      `${fmt(af)} ms`,
      `${fmt(fs)} ms (same floor)`,
      ratio(af, fs),
    ]);
    rows.push([
      `first settled frame, the first start with a ${SMALL_ITEMS.toLocaleString('en')}-item memory.jsonl (no frame or start-up cache yet)`,
      `${fmt(am)} ms`,
      `${fmt(fs)} ms (same floor)`,
      ratio(am, fs),
    ]);
  } finally {
    await killAll();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
