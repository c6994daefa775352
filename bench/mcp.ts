/**
 * `aish mcp` at 100k items: memory_recall in-process (MemoryTools, the code the server runs) after
 * the first call, goal ≤ 20 ms; and the idle RSS of the real server process (bin/aish.cjs mcp) after
 * its handshake and one recall.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Setup } from '../src/config/setup';
import { DEFAULT_CONFIG } from '../src/config/types';
import { MemoryTools } from '../src/frontends/mcp/memory-tools';
import { fmt, stats } from './lib';
import { makeQueries, makeWords, rng, sentence } from './recall';
import { BIN, isolatedEnv } from './startup';

function rssMiB(pid: number): string {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? (Number(m[1]) / 1024).toFixed(1) : '?';
}

export async function benchMcp(opts: { items?: number; calls?: number } = {}): Promise<{ rows: string[][] }> {
  const n = opts.items ?? 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'aish-mcp-bench-'));
  try {
    const rand = rng(7);
    const word = makeWords(rand);
    const path = join(dir, 'memory.jsonl');
    const start = Date.parse('2025-01-01T00:00:00Z');
    const lines: string[] = [];
    for (let i = 1; i <= n; i++)
      lines.push(
        JSON.stringify({ id: i, ts: new Date(start + i * 60_000).toISOString(), kind: 'fact', content: sentence(word, rand, 8, 28) }),
      );
    writeFileSync(path, lines.join('\n') + '\n');
    lines.length = 0;
    const s = { config: structuredClone(DEFAULT_CONFIG), configPath: null, paths: { memoryPath: path, dataDir: dir } } as unknown as Setup;
    const tools = new MemoryTools(
      s,
      () => 'bench',
      () => {},
    );
    const queries = makeQueries(opts.calls ?? 200, word, rand).map((q) => q.map((p) => p.text).join(' '));
    let t0 = performance.now();
    await tools.recall({ message: 'warm up', cwd: dir });
    const first = performance.now() - t0;
    const times: number[] = [];
    for (const message of queries) {
      t0 = performance.now();
      await tools.recall({ message, cwd: dir });
      times.push(performance.now() - t0);
    }
    tools.close();
    const t = stats(times);

    // The real server, idle after a handshake and one recall.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--data-dir', dir, 'mcp'],
      cwd: dir,
      env: isolatedEnv(join(dir, 'home'), 'http://127.0.0.1:9/v1'),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport);
    const pid = transport.pid!;
    const afterHandshake = rssMiB(pid);
    await client.callTool({ name: 'memory_recall', arguments: { message: queries[0]! } });
    await new Promise((r) => setTimeout(r, 2000));
    const idle = rssMiB(pid);
    await client.close();
    return {
      rows: [
        [`memory_recall, ${n.toLocaleString('en')} items, first call (index built or read)`, `${fmt(first)} ms`, '', ''],
        [
          `memory_recall after the first, p50 / p95 / p99 of ${times.length} varied messages (goal ≤ 20 ms)`,
          `${fmt(t.p50)} / ${fmt(t.p95)} / ${fmt(t.p99)} ms`,
          '',
          '',
        ],
        [
          `aish mcp idle RSS: after the handshake (empty index not yet read) / after one recall at ${n.toLocaleString('en')} items`,
          `${afterHandshake} / ${idle} MiB`,
          '',
          '',
        ],
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
