/**
 * Memory over a long live session: aish in a PTY answers TURNS questions from the fake server, and
 * the resident set of the aish process (VmRSS in /proc/PID/status) is read at the first prompt and
 * after the last turn (goal: ≤ start + 15 MB). Each answer is a few Markdown paragraphs, like a
 * real one, so finished turns that stay in memory show.
 * Usage: npm run bench -- rss-turns   (AISH_BENCH_TURNS=N for another number of turns)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../test/helpers/openai-server';
import { BIN, isolatedEnv, killAll, log, ptyRun, type Row } from './startup';

const TURNS = Number(process.env.AISH_BENCH_TURNS ?? 500);

/** VmRSS of a process in MB. */
function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
}

/** ~1.5 KB of Markdown that ends with a marker unique to the turn. */
function answer(n: number): string {
  const para = `Paragraph about **turn ${n}** with \`code\` and enough prose to wrap over several lines of the terminal, `.repeat(4);
  return `${para}\n\n- one item of turn ${n}\n- another item\n\n\`\`\`ts\nconst turn = ${n};\n\`\`\`\n\n${para}\n\nDone with turn ${n} zq${n}x.`;
}

const lastUser = (req: RecordedRequest): string => {
  const msgs = (req.body?.messages as Array<{ role: string; content: unknown }> | undefined) ?? [];
  const u = [...msgs].reverse().find((m) => m.role === 'user');
  return typeof u?.content === 'string' ? u.content : '';
};

export async function benchRssTurns(opts: { turns?: number } = {}): Promise<{ rows: Row[] }> {
  const turns = opts.turns ?? TURNS;
  const dir = mkdtempSync(join(tmpdir(), 'aish-bench-rss-'));
  let server: FakeOpenAI | undefined;
  try {
    server = await startFakeOpenAI({ defaultReply: (req) => ({ text: answer(Number(/\d+/.exec(lastUser(req))?.[0] ?? 0)) }) });
    const env = isolatedEnv(join(dir, 'home'), server.url);
    if (process.env.AISH_BENCH_NODE_OPTIONS) env.NODE_OPTIONS = process.env.AISH_BENCH_NODE_OPTIONS; // e.g. to test a heap limit
    if (process.env.AISH_CAPTURE) env.AISH_CAPTURE = process.env.AISH_CAPTURE;
    const run = ptyRun([BIN], env);
    try {
      await run.waitFor('fast (gpt-4o-mini)');
      await new Promise((r) => setTimeout(r, 1000)); // start-up background work settles first
      const start = rssMB(run.pty.pid);
      const t0 = Date.now();
      let at100 = 0;
      for (let i = 1; i <= turns; i++) {
        const from = run.chars();
        run.pty.write(`question ${i}\r`);
        await run.waitFor(`zq${i}x.`, { from, timeoutMs: 30_000 });
        if (i === 100) at100 = rssMB(run.pty.pid);
        if (i === 1 || i === 10) log(`rss-turns: turn ${i}, RSS ${rssMB(run.pty.pid).toFixed(1)} MB`);
        if (i % 100 === 0) log(`rss-turns: ${i}/${turns}, RSS ${rssMB(run.pty.pid).toFixed(1)} MB`);
      }
      await new Promise((r) => setTimeout(r, 1000));
      const end = rssMB(run.pty.pid);
      const perTurn = at100 ? (end - at100) / Math.max(1, turns - 100) : (end - start) / turns;
      log(`rss-turns: ${turns} turns in ${((Date.now() - t0) / 1000).toFixed(1)} s; RSS ${start.toFixed(1)} → ${end.toFixed(1)} MB`);
      return {
        rows: [
          [
            `RSS after ${turns} live turns (~1.5 KB Markdown answers)`,
            `${end.toFixed(1)} MB (+${(end - start).toFixed(1)} MB, ${(perTurn * 1024).toFixed(0)} KB/turn after turn 100)`,
            `${start.toFixed(1)} MB at the first prompt`,
            `+${(end - start).toFixed(1)} MB`,
          ],
        ],
      };
    } finally {
      await run.stop();
    }
  } finally {
    await killAll();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
