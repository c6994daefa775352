/**
 * Cold start to the first prompt in a real pseudo-terminal, compared in the same run with a bare
 * `node -e` that prints one word in the same PTY setup. Also `aish --version` vs `node -e ''`.
 * AISH_BENCH_BIN measures another build (e.g. the code before a change).
 * The PTY helpers here are shared with bench/stream.ts.
 */
import { spawn, type IPty } from '@lydell/node-pty';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI, type FakeOpenAI } from '../test/helpers/openai-server';
import { fmt, median, ratio, timeProcess } from './lib';

export const ROOT = resolve(import.meta.dirname, '..');
/** The aish measured: this checkout's, or another build's launcher (AISH_BENCH_BIN). */
export const BIN = process.env.AISH_BENCH_BIN ?? join(ROOT, 'bin', 'aish.cjs');
export type Row = [string, string, string, string];

/**
 * The node options on a launcher's `#!/usr/bin/env -S node --opt …` line (none on a plain
 * `#!/usr/bin/env node`): a benchmark that starts `node <launcher>` passes them, as the shell
 * does for a user's `aish`.
 */
export function shebangOptions(file: string): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\S*env(?:\s+-S)?\s+node\s+(.*)$/.exec(first);
  return m ? m[1]!.split(/\s+/).filter((a) => a.startsWith('--')) : [];
}

// CSI, OSC and single-character escapes (same as test/helpers/pty.ts).
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b[()][0-9A-B]/g;
export const stripAnsi = (s: string): string => s.replace(ANSI, '');
export const log = (msg: string): void => void process.stderr.write(`[bench] ${msg}\n`);
/** A difference in ms with its sign (fmt() assumes a positive number). */
export const signed = (ms: number): string => `${ms < 0 ? '-' : '+'}${fmt(Math.abs(ms))} ms`;

/** HOME and XDG_* inside a fresh empty dir: no config, memory or history; CI unset so Ink draws every frame. */
export function isolatedEnv(home: string, serverUrl: string): Record<string, string> {
  mkdirSync(home, { recursive: true });
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    OPENAI_API_KEY: 'x',
    OPENAI_BASE_URL: serverUrl,
  };
}

export interface PtyRun {
  pty: IPty;
  t0: number; // performance.now() just before spawn
  bytes(): number;
  /** performance.now() of the latest output. */
  lastDataAt(): number;
  /** Characters received so far: a mark for waitFor's `from`. */
  chars(): number;
  raw(): string;
  /** Resolves with performance.now() when `needle` shows in the visible text written after char `from`. */
  waitFor(needle: string, opts?: { timeoutMs?: number; from?: number }): Promise<number>;
  exited: Promise<void>;
  /** Ctrl-D, then a kill if it is still alive after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Every PTY started by a benchmark, so a failure still kills them all. */
export const livePtys = new Set<PtyRun>();

export function ptyRun(args: string[], env: Record<string, string>): PtyRun {
  const t0 = performance.now();
  const pty = spawn(process.execPath, args, { name: 'xterm-256color', cols: 100, rows: 30, cwd: ROOT, env });
  const chunks: string[] = [];
  let nbytes = 0;
  let nchars = 0;
  let lastAt = t0;
  let tail = ''; // the last few KB only: a search over the whole output per chunk would be O(n²)
  let alive = true;
  const waiters = new Set<() => void>();
  pty.onData((d) => {
    chunks.push(d);
    nbytes += Buffer.byteLength(d);
    nchars += d.length;
    lastAt = performance.now();
    tail = (tail + d).slice(-8192);
    for (const w of [...waiters]) w();
  });
  let exitedResolve!: () => void;
  const exited = new Promise<void>((r) => (exitedResolve = r));
  pty.onExit(() => {
    alive = false;
    exitedResolve();
  });
  const run: PtyRun = {
    pty,
    t0,
    bytes: () => nbytes,
    chars: () => nchars,
    lastDataAt: () => lastAt,
    raw: () => chunks.join(''),
    waitFor(needle, o = {}) {
      const from = o.from ?? 0;
      return new Promise((res, rej) => {
        const check = () => {
          if (nchars <= from) return;
          // Only text after `from` counts; the tail is long enough for any needle split over chunks.
          const keep = Math.min(tail.length, nchars - from);
          if (!stripAnsi(tail.slice(-keep)).includes(needle)) return;
          waiters.delete(check);
          clearTimeout(timer);
          res(performance.now());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          rej(new Error(`timed out waiting for ${JSON.stringify(needle)}; screen tail:\n${stripAnsi(tail).slice(-1500)}`));
        }, o.timeoutMs ?? 15_000);
        waiters.add(check);
        check();
      });
    },
    exited,
    async stop(graceMs = 2000) {
      if (alive) {
        pty.write('\x04');
        await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
      }
      if (alive) {
        try {
          pty.kill('SIGKILL');
        } catch {
          // already gone
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))]);
      }
      livePtys.delete(run);
    },
  };
  livePtys.add(run);
  return run;
}

export async function killAll(): Promise<void> {
  await Promise.all([...livePtys].map((r) => r.stop(200)));
}

const BASELINE = "process.stdout.write('ready\\n'); setTimeout(()=>{},50)";

/**
 * ms from spawn to the status line on screen, and to Ink's first frame (it starts with the
 * synchronized-output mark ESC[?2026h). Since the start-up re-cut both are Ink's first frame; the
 * code before it drew a prompt and status line of its own first, so for it the two differ. A key is
 * typed once the status line shows, so a first frame Ink skipped (equal to the one on screen) still
 * leaves one to time.
 */
async function aishToPrompt(dir: string, i: number, url: string): Promise<{ prompt: number; mounted: number }> {
  const run = ptyRun([BIN], isolatedEnv(join(dir, `home-${i}`), url));
  try {
    const prompt = (await run.waitFor('fast (gpt-4o-mini)')) - run.t0;
    run.pty.write('x');
    const deadline = performance.now() + 15_000;
    while (!run.raw().includes('\x1b[?2026h') && performance.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    const mounted = performance.now() - run.t0;
    run.pty.write('\x7f'); // an empty line again, so the Ctrl-D of stop() quits at once
    return { prompt, mounted };
  } finally {
    await run.stop();
  }
}

async function bareToReady(dir: string, i: number, url: string): Promise<number> {
  const run = ptyRun(['-e', BASELINE], isolatedEnv(join(dir, `bare-${i}`), url));
  try {
    return (await run.waitFor('ready')) - run.t0;
  } finally {
    await run.stop();
  }
}

/** Resident set size of a process, from /proc (MiB). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** RSS of aish sitting at its prompt (UI mounted, memory loaded) vs a bare idle node, same PTY setup. */
async function idleRss(dir: string, url: string): Promise<{ aish: number; bare: number }> {
  const a = ptyRun([BIN], isolatedEnv(join(dir, 'rss'), url));
  const b = ptyRun(['-e', "process.stdout.write('ready\\n'); setInterval(() => {}, 1000)"], isolatedEnv(join(dir, 'rss-bare'), url));
  try {
    await a.waitFor('mem 0');
    await b.waitFor('ready');
    await new Promise((r) => setTimeout(r, 1500)); // idle: background work done, a GC or two
    return { aish: rssMiB(a.pty.pid), bare: rssMiB(b.pty.pid) };
  } finally {
    await a.stop();
    await b.stop();
  }
}

/** A memory.jsonl of n items in a data dir's default place. */
export function writeMemory(home: string, n: number): void {
  const dir = join(home, '.local', 'share', 'aish');
  mkdirSync(dir, { recursive: true });
  const start = Date.parse('2025-01-01T00:00:00Z');
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  for (let i = 1; i <= n; i++) {
    lines.push(
      JSON.stringify({
        id: i,
        ts: new Date(start + i * 60_000).toISOString(),
        kind: 'fact',
        content: `Memory item ${i}: the user prefers concise answers and uses pnpm in project ${i % 97}.`,
      }),
    );
  }
  writeFileSync(join(dir, 'memory.jsonl'), lines.join('\n') + '\n', { mode: 0o600 });
}

/** The same, the second time aish starts on an unchanged file. */
async function warmStart(dir: string, i: number, url: string, items: number): Promise<{ prompt: number; injected: number }> {
  const home = join(dir, `warm-${items}-${i}`);
  writeMemory(home, items);
  await timedStart(home, url); // the first start reads the file and leaves the cache
  return timedStart(home, url);
}

/** With a 100k-item memory: spawn → prompt, and spawn → memory injected (status shows `mem N`). */
async function bigMemoryStart(dir: string, i: number, url: string): Promise<{ prompt: number; injected: number }> {
  const home = join(dir, `big-${i}`);
  writeMemory(home, 100_000);
  return timedStart(home, url);
}

async function timedStart(home: string, url: string): Promise<{ prompt: number; injected: number }> {
  const run = ptyRun([BIN], isolatedEnv(home, url));
  try {
    const prompt = (await run.waitFor('fast (gpt-4o-mini)')) - run.t0;
    const deadline = performance.now() + 15_000;
    while (!/mem \d+/.test(stripAnsi(run.raw())) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    return { prompt, injected: performance.now() - run.t0 };
  } finally {
    await run.stop();
  }
}

/** `bigMemory: false` leaves out the 100k and 1M-item starts (they take most of the time). */
export async function benchStartup(opts: { runs?: number; bigMemory?: boolean } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-startup-'));
  let server: FakeOpenAI | undefined;
  const rows: Row[] = [];
  try {
    server = await startFakeOpenAI();
    // Warm-up (disk cache, V8 code cache), then alternate so both see the same machine state.
    await aishToPrompt(dir, -1, server.url);
    await bareToReady(dir, -1, server.url);
    const ours: number[] = [];
    const mounted: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = await aishToPrompt(dir, i, server.url);
      ours.push(t.prompt);
      mounted.push(t.mounted);
      bare.push(await bareToReady(dir, i, server.url));
      log(`startup ${i + 1}/${runs}: aish ${fmt(t.prompt)} ms (Ink ${fmt(t.mounted)} ms), bare ${fmt(bare.at(-1)!)} ms`);
    }
    const [o, m, b] = [median(ours), median(mounted), median(bare)];
    rows.push([
      `cold start to first prompt in a PTY (median of ${runs})`,
      `${fmt(o)} ms`,
      `${fmt(b)} ms (node -e, prints \`ready\` in the same PTY)`,
      ratio(o, b),
    ]);
    rows.push([
      `cold start until the Ink UI has mounted (a key typed at the prompt; median of ${runs})`,
      `${fmt(m)} ms`,
      `${fmt(b)} ms (same baseline)`,
      ratio(m, b),
    ]);
    if (server.requests.length > 0) log(`note: aish sent ${server.requests.length} chat request(s) while starting`);

    if (opts.bigMemory !== false) {
      const big = [];
      const bigBare = [];
      for (let i = 0; i < Math.min(runs, 5); i++) {
        big.push(await bigMemoryStart(dir, i, server.url));
        bigBare.push(await bareToReady(dir, 100 + i, server.url));
      }
      const bb = median(bigBare);
      const [bp, bi] = [median(big.map((x) => x.prompt)), median(big.map((x) => x.injected))];
      for (const items of [100_000, 1_000_000]) {
        const warm = [];
        const warmBare = [];
        for (let i = 0; i < Math.min(runs, items > 100_000 ? 2 : 5); i++) {
          warm.push(await warmStart(dir, i, server.url, items));
          warmBare.push(await bareToReady(dir, 200 + i, server.url));
        }
        const [wi, wb] = [median(warm.map((x) => x.injected)), median(warmBare)];
        rows.push([
          `start with a ${items.toLocaleString('en')}-item memory.jsonl unchanged since the last start: memory injected (median of ${warm.length})`,
          `${fmt(wi)} ms`,
          `${fmt(wb)} ms (node -e)`,
          `+${fmt(wi - wb)} ms`,
        ]);
      }
      rows.push([
        `start with a 100,000-item memory.jsonl: first prompt (median of ${big.length})`,
        `${fmt(bp)} ms`,
        `${fmt(bb)} ms (node -e)`,
        `+${fmt(bp - bb)} ms`,
      ]);
      rows.push([
        `start with a 100,000-item memory.jsonl: memory loaded and injected`,
        `${fmt(bi)} ms`,
        `${fmt(bb)} ms (node -e)`,
        `+${fmt(bi - bb)} ms`,
      ]);
    }

    const rss = await idleRss(dir, server.url);
    rows.push([
      'idle RSS at the prompt (UI mounted, memory loaded)',
      `${rss.aish.toFixed(1)} MiB`,
      `${rss.bare.toFixed(1)} MiB (idle node)`,
      ratio(rss.aish, rss.bare),
    ]);

    const env = isolatedEnv(join(dir, 'version'), server.url);
    await timeProcess(process.execPath, [BIN, '--version'], env);
    await timeProcess(process.execPath, ['-e', ''], env);
    const ver: number[] = [];
    const node: number[] = [];
    for (let i = 0; i < runs; i++) {
      ver.push(await timeProcess(process.execPath, [BIN, '--version'], env));
      node.push(await timeProcess(process.execPath, ['-e', ''], env));
    }
    const [v, n] = [median(ver), median(node)];
    rows.push([`\`aish --version\` (spawn to exit, median of ${runs})`, `${fmt(v)} ms`, `${fmt(n)} ms (node -e '')`, ratio(v, n)]);
  } finally {
    await killAll();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
