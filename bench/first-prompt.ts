/**
 * "First prompt served": spawn → the chat request for a prompt typed the moment the terminal takes
 * keys reaches a local server (test/helpers/openai-server.ts). PTY 120×40; medians of runs that
 * alternate, in one process, between aish and two floors measured in the same run:
 *   - bare node: raw mode on, read a line, POST it with fetch;
 *   - the smallest bundled Ink + React app that does the same (built here with esbuild: minified,
 *     production React, react-devtools-core stubbed, Yoga without fetch as aish's own build).
 * "The terminal takes keys" means raw mode is on, seen from outside: a poller (python3's termios,
 * one long-lived process per run) opens the PTY's slave side and reads its mode every ~0.5 ms; the
 * moment ICANON and ECHO are both off the prompt and Enter are typed, once. A program that turns
 * raw mode on before it can act on keys (the old early echo) gets the keys then, and is timed until
 * the request is actually sent.
 * aish runs with an empty memory, 100k and 1M items (each home warmed by one untimed start, as a
 * user's memory is between starts); the request is checked for the prompt and, with memory, for
 * its [background] block.
 * Usage: npm run bench -- first-prompt   (AISH_BENCH_BIN=/path/to/bin/aish.cjs measures another build;
 * AISH_BENCH_COMPARE=/path/to/bin/aish.cjs adds another build to the same alternation;
 * AISH_BENCH_SIZES=0,100000 measures those memory sizes only, 0 first)
 */
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import { spawn, type IPty } from '@lydell/node-pty';
import { build } from 'esbuild';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../test/helpers/openai-server';
import { yogaWithoutFetch } from '../scripts/yoga-without-fetch.mjs';
import { fmt, median, ratio } from './lib';
import { BIN, ROOT, isolatedEnv, log, shebangOptions, signed, type Row } from './startup';

const COLS = 120;
const ROWS = 40;
const PROMPT = 'which package manager do I use in project 42';

/**
 * Polls a terminal's mode; prints `raw` once ICANON and ECHO are both off. Started before the
 * program (Python takes ~50 ms to start), it gets the terminal's path on stdin once it exists.
 */
const POLLER = `
import os, sys, termios, time
sys.stdout.write('ready\\n'); sys.stdout.flush()
fd = os.open(sys.stdin.readline().strip(), os.O_RDONLY | os.O_NOCTTY)
while True:
    lflag = termios.tcgetattr(fd)[3]
    if not lflag & (termios.ICANON | termios.ECHO):
        sys.stdout.write('raw\\n'); sys.stdout.flush(); break
    time.sleep(0.0005)
`;

const bareFloor = (url: string) => `
process.stdin.setRawMode(true);
process.stdout.write('\\u203a ');
let line = '';
process.stdin.on('data', (d) => {
  for (const ch of d.toString('utf8')) {
    if (ch === '\\r') {
      fetch(${JSON.stringify(url + '/chat/completions')}, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: line }] }) })
        .then((r) => r.text()).then(() => process.exit(0));
      return;
    }
    line += ch;
    process.stdout.write(ch);
  }
});
`;

const INK_FLOOR = `
import React, { useState } from 'react';
import { render, Box, Text, useInput } from 'ink';
function App() {
  const [line, setLine] = useState('');
  const typed = React.useRef('');
  const send = () =>
    fetch(process.env.FLOOR_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: typed.current }] }) })
      .then((r) => r.text()).then(() => process.exit(0));
  // Keys typed at once arrive as one input, Enter included ("text\\r"): split it as a line editor would.
  useInput((input, key) => {
    if (key.return) return void send();
    for (const ch of input) {
      if (ch === '\\r') return void send();
      typed.current += ch;
    }
    setLine(typed.current);
  });
  return React.createElement(Box, { flexDirection: 'column' },
    React.createElement(Text, null, '\\u203a ' + line),
    React.createElement(Text, { dimColor: true }, 'floor'));
}
render(React.createElement(App), { exitOnCtrlC: false, patchConsole: false });
`;

/** The Ink floor as one minified production bundle (in `dir`, beside aish's node_modules for resolving). */
async function buildInkFloor(dir: string): Promise<string> {
  const src = join(ROOT, 'node_modules', '.cache', `ink-floor-${process.pid}.mjs`);
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  writeFileSync(src, INK_FLOOR);
  const outfile = join(dir, 'ink-floor.mjs');
  try {
    await build({
      entryPoints: [src],
      outfile,
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      alias: { 'react-devtools-core': join(ROOT, 'scripts', 'empty-module.mjs') },
      define: { 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"' },
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      plugins: [yogaWithoutFetch],
      logLevel: 'warning',
    });
  } finally {
    rmSync(src, { force: true });
  }
  return outfile;
}

/** A memory.jsonl of n items, written as a stream (the 1M-item file is ~150 MB). */
async function writeBigMemory(home: string, n: number): Promise<void> {
  const dir = join(home, '.local', 'share', 'aish');
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(join(dir, 'memory.jsonl'), { mode: 0o600 });
  const start = Date.parse('2025-01-01T00:00:00Z');
  out.write('{"meta":{"format":"aish-memory","version":1}}\n');
  let batch = '';
  for (let i = 1; i <= n; i++) {
    batch +=
      JSON.stringify({
        id: i,
        ts: new Date(start + i * 60_000).toISOString(),
        kind: 'fact',
        content: `Memory item ${i}: the user prefers concise answers and uses pnpm in project ${i % 97}.`,
      }) + '\n';
    if (i % 10_000 === 0) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
}

interface Served {
  ms: number;
  /** spawn → raw mode seen on. */
  rawMs: number;
  req: RecordedRequest;
}

/** The request's messages other than the model's own, as text: where [background] and [recall] go. */
const systemOf = (req: RecordedRequest): string => {
  const body = req.body as { messages?: Array<{ role?: string }> } | null;
  return JSON.stringify(body?.messages?.filter((m) => m.role !== 'assistant') ?? []);
};

/** One start: spawn, wait for raw mode, type the prompt and Enter, wait for the request. */
async function served(args: string[], env: Record<string, string>, server: FakeOpenAI): Promise<Served> {
  server.reset();
  const poller: ChildProcess = spawnChild('python3', ['-c', POLLER], { stdio: ['pipe', 'pipe', 'inherit'] });
  let said = '';
  const saying = (what: string) =>
    new Promise<number>((resolve, reject) => {
      const check = () => (said.includes(what) ? resolve(performance.now()) : undefined);
      poller.stdout!.on('data', check);
      poller.on('exit', () => (said.includes(what) ? undefined : reject(new Error(`terminal mode poller ended before saying ${what}`))));
      check();
    });
  poller.stdout!.on('data', (d: Buffer) => (said += d.toString()));
  let pty: IPty | undefined;
  let exited = false;
  let gone: Promise<void> = Promise.resolve();
  let rawSeen = false;
  try {
    await saying('ready');
    const t0 = performance.now();
    pty = spawn(process.execPath, args, { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: ROOT, env });
    gone = new Promise<void>((r) =>
      pty!.onExit(() => {
        exited = true;
        r();
      }),
    );
    let out = '';
    pty.onData((d) => (out = (out + d).slice(-2000)));
    poller.stdin!.write(`${(pty as unknown as { ptsName: string }).ptsName}\n`);
    const rawAt = await Promise.race([
      saying('raw'),
      gone.then(() => {
        if (!rawSeen) throw new Error(`${args[0]} ended before raw mode was on: ${JSON.stringify(out)}`);
        return 0;
      }),
    ]);
    rawSeen = true;
    const request = server.waitForRequests(1, 30_000).then((r) => ({ at: performance.now(), req: r[0]! }));
    pty.write(PROMPT + '\r');
    const { at, req } = await request.catch((err: unknown) => {
      throw new Error(`${String(err)}; ${args[0]} wrote: ${JSON.stringify(out)}`);
    });
    return { ms: at - t0, rawMs: rawAt - t0, req };
  } finally {
    poller.kill('SIGKILL');
    if (pty && !exited) pty.kill('SIGKILL');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 2000))]);
  }
}

interface Variant {
  name: string;
  args: () => string[];
  env: () => Record<string, string>;
  /** With memory: the request must carry [background]. */
  memory?: boolean;
  samples: Served[];
  runs: number;
}

export async function benchFirstPrompt(
  opts: { runs?: number; bigRuns?: number; big?: boolean; sizes?: number[] } = {},
): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 9;
  const bigRuns = opts.bigRuns ?? 5;
  const bin = process.env.AISH_BENCH_BIN ?? BIN;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-firstprompt-'));
  let server: FakeOpenAI | undefined;
  const rows: Row[] = [];
  try {
    server = await startFakeOpenAI();
    const url = server.url;
    const inkFloor = await buildInkFloor(dir);
    const env = (home: string, extra: Record<string, string> = {}) => ({ ...isolatedEnv(home, url), AISH_CAPTURE: 'off', ...extra });
    const homes: Record<string, string> = {};
    const fromEnv = process.env.AISH_BENCH_SIZES?.split(',').map(Number);
    const sizes = opts.big === false ? [0] : (opts.sizes ?? fromEnv ?? [0, 100_000, 1_000_000]);
    for (const items of sizes) {
      const home = join(dir, `home-${items}`);
      mkdirSync(home, { recursive: true });
      if (items) {
        const t = performance.now();
        await writeBigMemory(home, items);
        log(`first-prompt: wrote ${items.toLocaleString('en')} items in ${fmt(performance.now() - t)} ms`);
      }
      homes[items] = home;
    }
    const aish = (items: number, n: number): Variant => ({
      name: items ? `aish, ${items.toLocaleString('en')}-item memory` : 'aish, empty memory',
      args: () => [...shebangOptions(bin), bin],
      env: () => env(homes[items]!),
      memory: items > 0,
      samples: [],
      runs: n,
    });
    const variants: Variant[] = [
      { name: 'bare node', args: () => ['-e', bareFloor(url)], env: () => env(join(dir, 'bare')), samples: [], runs },
      { name: 'Ink floor', args: () => [inkFloor], env: () => env(join(dir, 'ink'), { FLOOR_URL: url }), samples: [], runs },
      aish(0, runs),
      // A second build in the same alternation (e.g. the code before a change): paired figures.
      ...(process.env.AISH_BENCH_COMPARE
        ? [
            {
              ...aish(0, runs),
              name: 'compared aish, empty memory',
              args: () => [...shebangOptions(process.env.AISH_BENCH_COMPARE!), process.env.AISH_BENCH_COMPARE!],
              env: () => env(join(dir, 'compare')),
            },
          ]
        : []),
      ...sizes.filter((n) => n > 0).map((n) => aish(n, bigRuns)),
    ];
    // Warm-up: disk cache, and each aish home's data dir as a user's is between starts.
    for (const v of variants) await served(v.args(), v.env(), server);
    for (let i = 0; i < runs; i++) {
      const line: string[] = [];
      // Every other run in reverse order, so no variant always follows the same one.
      for (const v of i % 2 ? [...variants].reverse() : variants) {
        if (i >= v.runs) continue;
        const s = await served(v.args(), v.env(), server);
        if (!JSON.stringify(s.req.body).includes(PROMPT)) throw new Error(`${v.name}: the request does not carry the prompt`);
        if (v.memory && !systemOf(s.req).includes('[background]')) throw new Error(`${v.name}: the request has no [background]`);
        v.samples.push(s);
        line.push(`${v.name} ${fmt(s.ms)} ms (raw ${fmt(s.rawMs)})`);
      }
      log(`first prompt ${i + 1}/${runs}: ${line.join(', ')}`);
    }
    const med = (v: Variant) => median(v.samples.map((s) => s.ms));
    const medRaw = (v: Variant) => median(v.samples.map((s) => s.rawMs));
    const [bare, ink, empty] = variants as [Variant, Variant, Variant];
    const recallSeen = (v: Variant) => v.samples.filter((s) => systemOf(s.req).includes('[recall]')).length;
    rows.push([
      `first prompt served: spawn → the request for a prompt typed once raw mode is on (PTY ${COLS}×${ROWS}, median of ${runs}), aish with an empty memory vs the Ink floor (goal ≤ 1.25×)`,
      `${fmt(med(empty))} ms (raw mode on at ${fmt(medRaw(empty))} ms)`,
      `${fmt(med(ink))} ms (bundled Ink + React prompt, fetch; raw mode at ${fmt(medRaw(ink))} ms)`,
      ratio(med(empty), med(ink)),
    ]);
    rows.push([
      `first prompt served, aish with an empty memory vs bare node`,
      `${fmt(med(empty))} ms`,
      `${fmt(med(bare))} ms (node -e: raw mode, read a line, fetch; raw mode at ${fmt(medRaw(bare))} ms)`,
      ratio(med(empty), med(bare)),
    ]);
    rows.push([
      `first prompt served, the Ink floor vs bare node`,
      `${fmt(med(ink))} ms`,
      `${fmt(med(bare))} ms`,
      ratio(med(ink), med(bare)),
    ]);
    const compared = variants.find((v) => v.name.startsWith('compared'));
    if (compared)
      rows.push([
        `first prompt served, aish vs ${process.env.AISH_BENCH_COMPARE} (same alternation, empty memory)`,
        `${fmt(med(empty))} ms`,
        `${fmt(med(compared))} ms (ratio to the Ink floor ${ratio(med(compared), med(ink))})`,
        ratio(med(empty), med(compared)),
      ]);
    for (const v of variants.slice(3).filter((v) => v !== compared)) {
      const goal = v.name.includes('100,000') ? 60 : 150;
      rows.push([
        `first prompt served, ${v.name} (unchanged since the last start; [background] in the request, [recall] in ${recallSeen(v)} of ${v.samples.length}; median of ${v.samples.length}) vs aish empty (goal ≤ +${goal} ms)`,
        `${fmt(med(v))} ms (raw mode at ${fmt(medRaw(v))} ms)`,
        `${fmt(med(empty))} ms (aish, empty memory)`,
        signed(med(v) - med(empty)),
      ]);
    }
  } finally {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
