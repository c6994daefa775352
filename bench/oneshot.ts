/**
 * `aish -p hi` time to first token vs a bare openai SDK script on the same fake server, same run
 * (goal ≤ +15 ms). Both are plain child processes with stdin closed; the clock runs from spawn to
 * the first stdout byte, and to exit.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startFakeOpenAI, type FakeOpenAI } from '../test/helpers/openai-server';
import { fmt, median, ratio } from './lib';
import { BIN, ROOT, isolatedEnv, log, signed, type Row } from './startup';

const REPLY = { text: 'first-token then more text', firstChunkDelayMs: 0 };

// The same SDK build aish bundles, imported by absolute path so the script can live in a temp dir.
const bareScript = (openaiUrl: string): string => `import OpenAI from ${JSON.stringify(openaiUrl)};
const client = new OpenAI(); // OPENAI_BASE_URL and OPENAI_API_KEY from the environment, like aish
const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
for await (const chunk of stream) {
  const t = chunk.choices[0]?.delta?.content;
  if (t) process.stdout.write(t);
}
process.stdout.write('\\n');
`;

interface Timing {
  first: number; // spawn → first stdout byte, ms
  total: number; // spawn → exit, ms
  out: string;
}

const live = new Set<ReturnType<typeof spawn>>();

function timeFirstByte(args: string[], env: Record<string, string>): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let first = NaN;
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (Number.isNaN(first)) first = performance.now() - t0;
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const total = performance.now() - t0;
      clearTimeout(timer);
      live.delete(child);
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code ?? signal}: ${err.slice(-500)}`));
      else resolve({ first, total, out });
    });
  });
}

export async function benchOneshot(opts: { runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-oneshot-'));
  let server: FakeOpenAI | undefined;
  const rows: Row[] = [];
  try {
    server = await startFakeOpenAI({ defaultReply: REPLY });
    const openaiEntry = join(ROOT, 'node_modules', 'openai', 'index.mjs');
    if (!existsSync(openaiEntry)) throw new Error(`openai ESM entry not found at ${openaiEntry}`);
    const bare = join(dir, 'bare.mjs');
    writeFileSync(bare, bareScript(pathToFileURL(openaiEntry).href));
    const env = isolatedEnv(join(dir, 'home'), server.url);
    const aishArgs = [BIN, '-p', 'hi'];

    // Warm-up, then alternate so both see the same disk cache and CPU state.
    await timeFirstByte(aishArgs, env);
    await timeFirstByte([bare], env);
    const ours: Timing[] = [];
    const base: Timing[] = [];
    const perRun: number[] = [];
    for (let i = 0; i < runs; i++) {
      server.reset();
      ours.push(await timeFirstByte(aishArgs, env));
      perRun.push(server.requests.length);
      base.push(await timeFirstByte([bare], env));
      log(
        `oneshot ${i + 1}/${runs}: aish first ${fmt(ours.at(-1)!.first)} / exit ${fmt(ours.at(-1)!.total)} ms, bare first ${fmt(base.at(-1)!.first)} / exit ${fmt(base.at(-1)!.total)} ms`,
      );
    }
    // Sanity: the first byte must be the answer itself, not something printed before it.
    for (const [name, t] of [
      ['aish', ours[0]!],
      ['bare', base[0]!],
    ] as const) {
      if (!t.out.startsWith('first-token'))
        log(`note: ${name} stdout does not start with the answer: ${JSON.stringify(t.out.slice(0, 80))}`);
    }
    if (perRun.some((n) => n !== 1)) log(`note: aish -p sent ${perRun.join(',')} chat requests per run (expected 1)`);

    const [of, bf] = [median(ours.map((t) => t.first)), median(base.map((t) => t.first))];
    const [ot, bt] = [median(ours.map((t) => t.total)), median(base.map((t) => t.total))];
    rows.push([
      `\`aish -p hi\` time to first token (spawn → first stdout byte, median of ${runs})`,
      `${fmt(of)} ms`,
      `${fmt(bf)} ms (bare openai SDK script)`,
      `${signed(of - bf)} (${ratio(of, bf)})`,
    ]);
    rows.push([
      `\`aish -p hi\` total process time (spawn → exit, median of ${runs})`,
      `${fmt(ot)} ms`,
      `${fmt(bt)} ms (bare openai SDK script)`,
      `${signed(ot - bt)} (${ratio(ot, bt)})`,
    ]);
  } finally {
    for (const c of live) c.kill('SIGKILL');
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}
