/**
 * Memory at scale through its index (docs/memory.md, "The index"): with 100k and 1M items, against
 * the same command on an empty store, in alternating runs of one process, medians:
 *   - `aish -p`: spawn → the chat request reaching a local server (goal: 100k ≤ +60 ms, 1M ≤ +150 ms
 *     over an empty memory), checking that the request carries complete [background] and [recall];
 *   - `aish memory search` and `aish memory plan` (goal ≤ 3× the empty store);
 *   - `aish memory add` (the duplicate check and the next id through the index).
 * The first command after the file is written builds the index (reported apart): every later run
 * uses the same index, as a user's next commands would. The empty store is a memory.jsonl with no
 * items and its own index (the same code path, not a missing file); `add` has an empty store of its
 * own, so the adds do not fill the one the other commands compare with.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeOpenAI } from '../test/helpers/openai-server';
import { fmt, median, ratio } from './lib';
import { BIN, ROOT, isolatedEnv, log, signed, type Row } from './startup';

const QUERY = 'how does project 42 deploy?';

function makeFile(path: string, n: number): void {
  const start = Date.parse('2020-01-01T00:00:00Z');
  const kinds = ['fact', 'pref', 'context'];
  const chunk: string[] = ['{"meta":{"format":"aish-memory","version":1}}'];
  writeFileSync(path, n ? '' : chunk[0] + '\n', { mode: 0o600 });
  for (let i = 1; i <= n; i++) {
    chunk.push(
      JSON.stringify({
        id: i,
        ts: new Date(start + i * 60_000).toISOString(),
        kind: kinds[i % 3],
        content: `Memory item ${i}: the user prefers concise answers, uses pnpm in project ${i % 97}, and deploys with make release on Fridays.`,
      }),
    );
    if (chunk.length === 10_000 || i === n) writeFileSync(path, chunk.splice(0).join('\n') + '\n', { flag: 'a' });
  }
}

/** spawn → exit, and spawn → the first chat request at the server (NaN when none came). */
function run(args: string[], env: Record<string, string>, arrivals: number[]): Promise<{ total: number; request: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const seen = arrivals.length;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`aish ${args.join(' ')} exited ${code}: ${err.slice(-300)}`));
      resolve({ total: performance.now() - t0, request: arrivals.length > seen ? arrivals[seen]! - t0 : NaN });
    });
  });
}

export async function benchMemoryScale(opts: { sizes?: number[]; runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 7;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-memscale-'));
  const server = await startFakeOpenAI({ defaultReply: { text: 'ok' } });
  const arrivals: number[] = [];
  const bodies: string[] = [];
  server.setDefault((req) => {
    arrivals.push(performance.now());
    bodies.push(JSON.stringify(req.body));
    return { text: 'ok' };
  });
  const rows: Row[] = [];
  try {
    const [empty, emptyAdd] = [join(dir, 'empty'), join(dir, 'empty-add')];
    for (const d of [empty, emptyAdd]) {
      mkdirSync(d);
      makeFile(join(d, 'memory.jsonl'), 0);
    }
    for (const n of opts.sizes ?? [100_000, 1_000_000]) {
      const data = join(dir, `n${n}`);
      mkdirSync(data);
      makeFile(join(data, 'memory.jsonl'), n);
      const mib = (statSync(join(data, 'memory.jsonl')).size / 2 ** 20).toFixed(0);
      const envOf = (d: string) => ({ ...isolatedEnv(join(dir, 'home'), server.url), AISH_DATA_DIR: d });
      const label = `${n.toLocaleString('en')} items (${mib} MiB)`;
      const build = await run(['memory', 'search', 'warm up'], envOf(data), arrivals);
      log(`memory-scale ${label}: first command (builds the index) ${fmt(build.total)} ms`);
      const cmds: Array<[name: string, args: string[]]> = [
        ['-p', ['-p', QUERY]],
        ['memory search', ['memory', 'search', QUERY]],
        ['memory plan', ['memory', 'plan', QUERY]],
        ['memory add', ['memory', 'add', 'fact', 'ADD']],
      ];
      let withMemory = '';
      for (const [name, args] of cmds) {
        const big: number[] = [];
        const none: number[] = [];
        const key = name === '-p' ? 'request' : 'total';
        const base = name === 'memory add' ? emptyAdd : empty;
        await run(args, envOf(base), arrivals);
        for (let i = 0; i < runs; i++) {
          const a = args.map((x) => (x === 'ADD' ? `bench add ${n} ${i} ${Date.now()}` : x));
          big.push((await run(a, envOf(data), arrivals))[key]);
          if (name === '-p') withMemory = bodies.at(-1) ?? '';
          none.push((await run(a, envOf(base), arrivals))[key]);
        }
        const [b, e] = [median(big), median(none)];
        log(`memory-scale ${label} ${name}: ${fmt(b)} ms vs ${fmt(e)} ms empty`);
        const what = name === '-p' ? '`aish -p`, spawn → request at the server' : `\`aish ${name}\``;
        rows.push([`${what}, ${label}`, `${fmt(b)} ms`, `${fmt(e)} ms (same, empty memory)`, `${signed(b - e)} (${ratio(b, e)})`]);
      }
      // The request of a -p run with memory: [background] in the system prompt, [recall] for project 42.
      if (!withMemory.includes('[background]') || !/\[recall\][^"]*#\d+/.test(withMemory))
        log(`note: a -p request at ${label} lacks [background] or [recall]`);
      rows.push([`index build (first command after the file changed), ${label}`, `${fmt(build.total)} ms`, '—', '—']);
      rmSync(data, { recursive: true, force: true });
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
