/**
 * `aish memory list` and `search` at 1,000,000 items, through the built CLI. A spread of that many arguments
 * (`Math.max(...items.map(…))`) overflows the call stack: this is the guard against one coming back.
 * `list --json` must not need more memory than a bare parse of the file (it once built one string
 * of the whole array: 1.9× a bare parse's peak).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Sidecar } from '../../src/memory/index/sidecar';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const N = 1_000_000;

function millionItems(dir: string): void {
  const base = Date.parse('2020-01-01T00:00:00Z');
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  for (let id = 1; id <= N; id++)
    lines.push(`{"id":${id},"ts":"${new Date(base + id * 1000).toISOString()}","kind":"fact","content":"item ${id}"}`);
  writeFileSync(join(dir, 'memory.jsonl'), lines.join('\n') + '\n');
}

describe('memory list at 1,000,000 items (real CLI)', () => {
  it('lists them all, as rows and as JSON, exit 0', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    mkdirSync(dir);
    millionItems(dir);

    // The listing marks what [background] holds from the index, so this first list builds it (as search does).
    const list = await runAish(['--data-dir', dir, 'memory', 'list'], { home, timeoutMs: 240_000 });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(N + 2); // header, items, summary
    expect(rows[1]).toMatch(/^\*\s+1000000\s+\S+\s+fact\s+item 1000000( {2}\(\d+ \w+ old\))?$/);
    expect(rows.at(-1)).toMatch(/^1000000 items; \* = in \[background\] here/);

    // Each process writes its peak RSS when it exits: VmHWM, since Linux counts the parent's RSS at
    // fork (this test's, large) into a child's maxRSS.
    const preload = join(home, 'peak.cjs');
    const hwm = `const fs = require('node:fs'); const m = process.platform === 'linux' && /VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'));`;
    writeFileSync(
      preload,
      `process.on('exit', () => { ${hwm} require('node:fs').writeFileSync(process.env.PEAK_FILE, m ? m[1] : String(process.resourceUsage().maxRSS)); });`,
    );
    const peak = (name: string) => ({ NODE_OPTIONS: `--require ${preload}`, PEAK_FILE: join(home, name) });
    const json = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home, timeoutMs: 60_000, env: peak('aish') });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const items = JSON.parse(json.stdout) as Array<{ id: number }>;
    expect(items).toHaveLength(N);
    expect(items[0]!.id).toBe(N);
    expect(items[N - 1]!.id).toBe(1);

    const bare = `const out = []; for (const l of require('node:fs').readFileSync(process.argv[1], 'utf8').split('\\n')) if (l) out.push(JSON.parse(l)); console.log(out.length);`;
    execFileSync(process.execPath, ['-e', bare, join(dir, 'memory.jsonl')], { env: { ...process.env, ...peak('bare') } });
    const [ours, floor] = ['aish', 'bare'].map((f) => Number(readFileSync(join(home, f), 'utf8')));
    // Through the index the list made: measured ≈ 0.4× here (a full read ≈ 1.0×; the one-string version needed 1.9×).
    expect(ours).toBeLessThan(floor!);
  }, 300_000);

  it('search builds the index once, then answers from it; an add is laid over it as the tail', async () => {
    const home = tmpDir();
    const dir = join(home, 'd');
    mkdirSync(dir);
    millionItems(dir);
    const search = async (text: string) => {
      const r = await runAish(['--data-dir', dir, 'memory', 'search', '--json', '--limit', '3', text], { home, timeoutMs: 120_000 });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as Array<{ id: number; content: string }>).map((h) => h.content);
    };
    expect(await search('item 999999')).toEqual(['item 999999']); // builds memory.jsonl.index
    expect(statSync(join(dir, 'memory.jsonl.index')).mode & 0o777).toBe(0o600);
    const add = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'item 999999 and a second look'], { home, timeoutMs: 120_000 });
    expect(add.stdout).toBe('added 1000001 (fact)\n');
    expect(await search('item 999999')).toEqual(['item 999999 and a second look', 'item 999999']);
    // Not rebuilt: the index still holds the million it was built from, and the add rides on it as the
    // tail. Built right after the file was written, it was racy; a later start checked it and settled it.
    const header = Sidecar.open(join(dir, 'memory.jsonl'))!.header;
    expect(header.n).toBe(N);
    expect(header.racyCrc).toBeUndefined();
  }, 300_000);
});
