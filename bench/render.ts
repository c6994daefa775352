/**
 * Keystroke-to-frame latency in the real REPL with a 500-turn conversation on screen (issue 6,
 * item 5), against the same measurement on an empty conversation and a bare raw-mode echo program
 * in the same PTY. Latency: from writing one character to the PTY until output containing it
 * arrives (Ink draws the input line with the new character).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lastUserText, startFakeOpenAI, type FakeOpenAI } from '../test/helpers/openai-server';
import { fmt, stats } from './lib';
import { BIN, isolatedEnv, killAll, log, ptyRun, type PtyRun, type Row } from './startup';

/** Keys typed per measurement (AISH_BENCH_KEYS, e.g. fewer for --quick). */
const KEYS = Number(process.env.AISH_BENCH_KEYS ?? 60);
const GAP_MS = 60; // typing speed: ~16 keys a second
const ECHO = `process.stdin.setRawMode(true); process.stdout.write('ready\\n'); process.stdin.on('data', (d) => { if (d[0] === 4) process.exit(0); process.stdout.write(d); });`;

/** ms from writing a key until output containing it arrives, for KEYS keys. */
async function keyLatencies(run: PtyRun): Promise<number[]> {
  const out: number[] = [];
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < KEYS; i++) {
    const ch = alphabet[i % alphabet.length]!;
    const before = run.chars();
    const t0 = performance.now();
    run.pty.write(ch);
    const deadline = t0 + 5000;
    while (performance.now() < deadline) {
      if (run.chars() > before && run.raw().slice(before).includes(ch)) break;
      await new Promise((r) => setImmediate(r));
    }
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  run.pty.write('\x15'); // Ctrl-U: clear the line again
  return out;
}

async function fillConversation(run: PtyRun, server: FakeOpenAI, turns: number): Promise<void> {
  server.setDefault((req) => {
    // Numbered from the question, not by counting messages: the sliding window drops old ones.
    const n = /question (\d+)/.exec(lastUserText(req))?.[1] ?? '?';
    return {
      text: `Answer ${n}: here is a short paragraph with **bold** text and \`code\`.\n\n- one item\n- another item\n\nEnd of answer ${n}.`,
    };
  });
  for (let i = 1; i <= turns; i++) {
    const from = run.chars();
    run.pty.write(`question ${i}\r`);
    await run.waitFor(`End of answer ${i}.`, { from, timeoutMs: 20_000 });
    if (i % 100 === 0) log(`render: ${i}/${turns} turns on screen`);
  }
}

export async function benchRender(opts: { turns?: number } = {}): Promise<{ rows: Row[] }> {
  const turns = opts.turns ?? 500;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-render-'));
  let server: FakeOpenAI | undefined;
  const rows: Row[] = [];
  try {
    server = await startFakeOpenAI();
    const bareScript = join(dir, 'echo.mjs');
    writeFileSync(bareScript, ECHO);
    const bare = ptyRun([bareScript], isolatedEnv(join(dir, 'bare'), server.url));
    await bare.waitFor('ready');
    const bareLat = stats(await keyLatencies(bare));
    await bare.stop();

    const empty = ptyRun([BIN], isolatedEnv(join(dir, 'empty'), server.url));
    await empty.waitFor('fast (gpt-4o-mini)');
    await new Promise((r) => setTimeout(r, 500));
    const emptyLat = stats(await keyLatencies(empty));
    await empty.stop();

    const full = ptyRun([BIN], isolatedEnv(join(dir, 'full'), server.url));
    await full.waitFor('fast (gpt-4o-mini)');
    const t0 = performance.now();
    await fillConversation(full, server, turns);
    log(`render: ${turns} turns took ${fmt(performance.now() - t0)} ms`);
    await new Promise((r) => setTimeout(r, 300));
    const fullLat = stats(await keyLatencies(full));
    await full.stop();

    const row = (what: string, s: ReturnType<typeof stats>): Row => [
      `keystroke → frame, ${what} (${KEYS} keys)`,
      `p50 ${fmt(s.p50)} ms, p95 ${fmt(s.p95)} ms`,
      `p50 ${fmt(bareLat.p50)} ms (bare raw-mode echo)`,
      `+${fmt(s.p50 - bareLat.p50)} ms p50`,
    ];
    rows.push(row(`${turns} turns on screen`, fullLat));
    rows.push(row('empty conversation', emptyLat));
  } finally {
    await killAll();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
