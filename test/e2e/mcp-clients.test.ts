/**
 * `aish mcp` with other clients and other writers: an independent MCP client from npm
 * (@modelcontextprotocol/inspector-cli, `--cli` mode) lists and calls the tools; MCP servers and
 * `aish memory add` writing at once lose nothing and never share an id.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { BIN } from '../helpers/paths';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const run = promisify(execFile);
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'cli.js',
);

describe('aish mcp and other clients', () => {
  it('the inspector CLI lists the tools and calls memory_search and memory_propose', async () => {
    const home = tmpDir();
    const data = join(home, 'data');
    // The inspector reads its own package.json through a path relative to its working directory's parent.
    writeFileSync(join(home, 'package.json'), '{}\n');
    const work = join(home, 'work');
    mkdirSync(work);
    expect((await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'the staging database listens on port 5433'], { home })).code).toBe(
      0,
    );
    const inspect = async (...args: string[]) => {
      const r = await run(process.execPath, [INSPECTOR, '--cli', process.execPath, BIN, '--data-dir', data, 'mcp', ...args], {
        cwd: work,
        env: isolatedEnv(home),
        timeout: 60_000,
      });
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    const list = (await inspect('--method', 'tools/list')) as { tools: Array<{ name: string }> };
    expect(list.tools.map((t) => t.name)).toEqual([
      'memory_recall',
      'memory_search',
      'memory_list',
      'memory_propose',
      'memory_forget_request',
    ]);
    const found = (await inspect('--method', 'tools/call', '--tool-name', 'memory_search', '--tool-arg', 'query=staging port')) as {
      content: Array<{ text: string }>;
    };
    expect(found.content[0]!.text).toMatch(/^- #1 \(fact\) the staging database listens on port 5433 \(\d{4}-\d{2}-\d{2}\)$/m);
    const proposed = (await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'memory_propose',
      '--tool-arg',
      'kind=pref',
      '--tool-arg',
      'content=answers in British English',
    )) as { content: Array<{ text: string }> };
    expect(proposed.content[0]!.text).toMatch(/^proposed \(inbox #1\)/);
    const review = JSON.parse((await runAish(['--data-dir', data, 'memory', 'review', '--json'], { home })).stdout) as Array<{
      agent: string;
    }>;
    expect(review).toEqual([expect.objectContaining({ agent: 'inspector-cli', content: 'answers in British English' })]);
  });

  it('MCP servers proposing and writing while the CLI adds: 8 writers × 30, nothing lost, no id twice', async () => {
    const home = tmpDir();
    const data = join(home, 'data');
    const cfg = (mode: string) => {
      const p = join(home, `${mode}.ts`);
      writeFileSync(p, `export default { memory: { agents: '${mode}' } };\n`);
      return p;
    };
    const review = cfg('review');
    const trust = cfg('trust');
    const N = 30;
    const agent = async (w: number, config: string) => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--config', config, '--data-dir', data, 'mcp'],
        env: isolatedEnv(home) as Record<string, string>,
        cwd: home,
        stderr: 'pipe',
      });
      const client = new Client({ name: `agent${w}`, version: '1' });
      await client.connect(transport);
      const texts: string[] = [];
      for (let i = 0; i < N; i++) {
        const r = await client.callTool({ name: 'memory_propose', arguments: { kind: 'fact', content: `agent${w} note ${i}` } });
        texts.push((r.content as Array<{ text: string }>)[0]!.text);
      }
      await client.close();
      return texts;
    };
    const cli = async (w: number) => {
      for (let i = 0; i < N; i++) {
        const r = await runAish(['--data-dir', data, 'memory', 'add', 'fact', `cli${w} note ${i}`], { home, timeoutMs: 60_000 });
        expect(r.code, r.stderr).toBe(0);
      }
    };
    const results = await Promise.all([
      agent(0, review),
      agent(1, review),
      agent(2, trust),
      agent(3, trust),
      cli(0),
      cli(1),
      cli(2),
      cli(3),
    ]);
    for (const texts of results.slice(0, 2)) for (const t of texts!) expect(t).toMatch(/^proposed \(inbox #\d+\)/);
    for (const texts of results.slice(2, 4)) for (const t of texts!) expect(t).toMatch(/^remembered as #\d+$/);

    const items = MemoryStore.open(join(data, 'memory.jsonl')).snapshot().items;
    expect(items).toHaveLength(6 * N);
    expect(new Set(items.map((i) => i.id)).size).toBe(6 * N);
    const contents = new Set(items.map((i) => i.content));
    for (const w of [2, 3]) for (let i = 0; i < N; i++) expect(contents).toContain(`agent${w} note ${i}`);
    for (let w = 0; w < 4; w++) for (let i = 0; i < N; i++) expect(contents).toContain(`cli${w} note ${i}`);

    const inbox = readFileSync(join(data, 'inbox.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; content: string; agent: string });
    expect(inbox).toHaveLength(2 * N);
    expect(new Set(inbox.map((c) => c.id)).size).toBe(2 * N);
    for (const w of [0, 1])
      for (let i = 0; i < N; i++)
        expect(inbox).toContainEqual(expect.objectContaining({ agent: `agent${w}`, content: `agent${w} note ${i}` }));
  }, 180_000);
});
