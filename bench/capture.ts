/**
 * What capture costs at exit (goal ≤ +100 ms): a piped session of 5 prompts (capture's threshold is
 * 4) timed from spawn to exit with `memory.capture: "ask"` and with `"off"`, alternating, same fake
 * server. The capture's model call is made slow (2 s) on purpose: exit must not wait for it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CAPTURE_INSTRUCTION } from '../src/memory/review/capture-prompt';
import { startFakeOpenAI, type FakeOpenAI } from '../test/helpers/openai-server';
import { fmt, median } from './lib';
import { BIN, ROOT, isolatedEnv, log, signed, type Row } from './startup';

const INPUT = ['one', 'two', 'three', 'four', 'five'].join('\n') + '\n';

function timeExit(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['pipe', 'ignore', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`aish exited ${code}`));
      else resolve(performance.now() - t0);
    });
    child.stdin.end(INPUT);
  });
}

export async function benchCapture(opts: { runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 7;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-capture-'));
  let server: FakeOpenAI | undefined;
  try {
    server = await startFakeOpenAI({
      defaultReply: (req) =>
        req.body?.messages?.[0]?.content === CAPTURE_INSTRUCTION
          ? { text: 'TITLE: t\nMEMORY:\n- fact: x', firstChunkDelayMs: 2000 }
          : { text: 'ok' },
    });
    const env = isolatedEnv(join(dir, 'home'), server.url);
    const cfg = (mode: string) => {
      const p = join(dir, `config-${mode}.ts`);
      writeFileSync(p, `export default { memory: { capture: '${mode}' } };\n`);
      return p;
    };
    const modes = { ask: cfg('ask'), off: cfg('off') };
    const times: Record<'ask' | 'off', number[]> = { ask: [], off: [] };
    let n = 0;
    const run = async (mode: 'ask' | 'off') => {
      const data = join(dir, `data-${n++}`);
      mkdirSync(data, { recursive: true });
      return timeExit(['--config', modes[mode], '--data-dir', data], env);
    };
    await run('ask');
    await run('off');
    for (let i = 0; i < runs; i++) {
      times.ask.push(await run('ask'));
      times.off.push(await run('off'));
      log(`capture ${i + 1}/${runs}: ask ${fmt(times.ask.at(-1)!)} ms, off ${fmt(times.off.at(-1)!)} ms`);
    }
    // The captures themselves finish after the runs: wait so the temp dir is not removed under them.
    const deadline = Date.now() + 15_000;
    while (
      Date.now() < deadline &&
      readdirSync(dir).some(
        (d) =>
          d.startsWith('data-') &&
          existsSync(join(dir, d, 'sessions')) &&
          readdirSync(join(dir, d, 'sessions')).some((f) => f.endsWith('.capturing')),
      )
    )
      await new Promise((r) => setTimeout(r, 100));
    const [a, o] = [median(times.ask), median(times.off)];
    return {
      rows: [
        [
          `piped session of 5 prompts, spawn → exit, capture "ask" vs "off" (model call 2 s, median of ${runs})`,
          `${fmt(a)} ms`,
          `${fmt(o)} ms (capture off)`,
          `${signed(a - o)}`,
        ],
      ],
    };
  } finally {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
