/**
 * `:memory review --stale` in the real REPL (a PTY): one stale item kept (stamped confirmed), one
 * forgotten; `aish memory review --stale [--json]` lists them; a turn that recalls an item notes it,
 * so the item is no longer "never recalled"; so does another agent's memory_recall or memory_search
 * through `aish mcp` (the items handed over whole), but not its memory_list.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMemory } from '../../src/memory/store';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { callTool, connectMcp } from '../helpers/mcp-client';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

/** The note is appended after its file is made: wait for a whole line, not for the file alone. */
const noteWritten = (path: string): boolean => existsSync(path) && readFileSync(path, 'utf8').endsWith('\n');

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A data dir whose memory.jsonl holds two old items, one pinned old item and one fresh item. */
function prepared(): { home: string; data: string; mem: string; args: string[] } {
  const home = tmpDir();
  const data = join(home, 'data');
  mkdirSync(data, { mode: 0o700 });
  const mem = join(data, 'memory.jsonl');
  const items = [
    { id: 1, ts: ago(300), kind: 'fact', content: 'the staging host is called zebra' },
    { id: 2, ts: ago(250), kind: 'pref', content: 'answer in French' },
    { id: 3, ts: ago(400), kind: 'fact', content: 'deploys go out with make release', pinned: true },
    { id: 4, ts: ago(5), kind: 'fact', content: 'the cat is named Miso' },
  ];
  writeFileSync(mem, items.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
  return { home, data, mem, args: ['--data-dir', data] };
}

describe(':memory review --stale (PTY)', () => {
  it('walks the old unpinned items oldest first: y keeps one (confirmed), n forgets the other', async () => {
    const { home, mem, args } = prepared();
    const s = spawnAish(args, { home, env: fake.env(), cols: 160 });
    all.push(s);
    await s.waitFor('›');
    s.write(':memory review --stale\r');
    await s.waitFor(/\[stale\] 1\/2 #1 \(fact\) the staging host is called zebra {2}— \d+ months old, never recalled/);
    await s.waitFor('keep? [y/n/e/s/q]');
    s.write('y\r');
    await s.waitFor('kept as #5, confirmed (was #1)');
    await s.waitFor(/\[stale\] 2\/2 #2 \(pref\) answer in French/);
    s.write('n\r');
    await s.waitFor('forgot #2');
    await s.waitFor('[aish] stale review: kept 1, edited 0, forgot 1, skipped 0; 0 still stale');
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);

    const recs = records(mem);
    const kept = recs.find((r) => r.id === 5)!;
    expect(kept).toMatchObject({ kind: 'fact', content: 'the staging host is called zebra' });
    expect(typeof kept.confirmed).toBe('string');
    expect(Date.now() - Date.parse(kept.confirmed as string)).toBeLessThan(3_600_000);
    expect(recs.filter((r) => r.kind === 'forget').map((r) => r.target)).toEqual([1, 2]);
    expect(loadMemory(mem).items.map((i) => i.id)).toEqual([5, 4, 3]);

    // Nothing is stale any more: the pinned item never is, the kept one is confirmed.
    const after = await runAish([...args, 'memory', 'review', '--stale'], { home, env: fake.env() });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain('nothing stale');
  });
});

describe('aish memory review --stale', () => {
  it('lists them one a line, or as JSON, and exits 0; a recalled item is no longer "never recalled"', async () => {
    const { home, mem, args } = prepared();
    const r = await runAish([...args, 'memory', 'review', '--stale'], { home, env: fake.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^#1 \(fact\) the staging host is called zebra {2}— (9|10) months old, never recalled$/),
      expect.stringMatching(/^#2 \(pref\) answer in French {2}— 8 months old, never recalled$/),
      '2 stale — keep, edit or forget them with :memory review --stale in aish',
    ]);
    const json = await runAish([...args, 'memory', 'review', '--stale', '--json'], { home, env: fake.env() });
    expect(json.code).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((x) => [x.id, x.unused, x.last_recalled])).toEqual([
      [1, true, null],
      [2, true, null],
    ]);

    // A prompt that recalls #1 (nothing in [background], so recall has it to send): the turn notes it, and it leaves the stale list.
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 0 } };\n');
    const turn = await runAish(['--config', cfg, ...args, '-p', 'what is the staging host called?'], { home, env: fake.env() });
    expect(JSON.stringify(fake.server.requests.at(-1))).toContain('the staging host is called zebra');
    expect(turn.code).toBe(0);
    expect(readFileSync(`${mem}.recalled`, 'utf8')).toMatch(/^\{"t":"[^"]+","uids":\["[0-9A-Z]+"\]\}\n$/);
    const again = await runAish([...args, 'memory', 'review', '--stale', '--json'], { home, env: fake.env() });
    expect((JSON.parse(again.stdout) as Array<{ id: number }>).map((x) => x.id)).toEqual([2]);
  });

  it('counts an item recalled by another agent over MCP (aish mcp) as recalled', async () => {
    const { home, mem, args } = prepared();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 0 } };\n');
    const client = await connectMcp(home, ['--config', cfg, ...args], home);
    const r = await callTool(client, 'memory_recall', { message: 'what is the staging host called?' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('the staging host is called zebra');
    // Noted off the answer's path, on the server's next tick.
    await waitUntil(() => noteWritten(`${mem}.recalled`), 'the recall note');
    expect(readFileSync(`${mem}.recalled`, 'utf8')).toMatch(/^\{"t":"[^"]+","uids":\["[0-9A-Z]+"\]\}\n$/);
    const again = await runAish([...args, 'memory', 'review', '--stale', '--json'], { home, env: fake.env() });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as Array<{ id: number }>).map((x) => x.id)).toEqual([2]);
  });

  it('counts an item another agent finds with memory_search as recalled, and not one it only lists (memory_list)', async () => {
    const { home, mem, args } = prepared();
    const client = await connectMcp(home, args, home);
    // A listing hands over every item but asked for none of them: not a use.
    const listed = await callTool(client, 'memory_list', {});
    expect(listed.text).toContain('the staging host is called zebra');
    expect(listed.text).toContain('answer in French');
    const r = await callTool(client, 'memory_search', { query: 'staging host' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('the staging host is called zebra');
    expect(r.text).not.toContain('answer in French');
    await waitUntil(() => noteWritten(`${mem}.recalled`), 'the search note');
    // One note, the search's: the listing (answered first, noted first were it noted) wrote none.
    expect(readFileSync(`${mem}.recalled`, 'utf8')).toMatch(/^\{"t":"[^"]+","uids":\["[0-9A-Z]+"\]\}\n$/);
    const again = await runAish([...args, 'memory', 'review', '--stale', '--json'], { home, env: fake.env() });
    expect((JSON.parse(again.stdout) as Array<{ id: number }>).map((x) => x.id)).toEqual([2]);
  });

  it('counts only the items an answer hands over whole: those past the 8,000-character cut stay unused', async () => {
    const home = tmpDir();
    const data = join(home, 'data');
    mkdirSync(data, { mode: 0o700 });
    const mem = join(data, 'memory.jsonl');
    // Words of its own in each (items that share most of their words would be stale as repeats).
    const content = (i: number) => `the zebra cluster note ${i}: ${Array.from({ length: 220 }, (_, j) => `w${i}x${j}`).join(' ')}`;
    const items = Array.from({ length: 10 }, (_, k) => ({ id: k + 1, ts: ago(300 - k), kind: 'fact', content: content(k + 1) }));
    writeFileSync(mem, items.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
    const client = await connectMcp(home, ['--data-dir', data], home);
    const r = await callTool(client, 'memory_search', { query: 'zebra cluster', limit: 10 });
    expect(r.text).toContain('(cut at 8000 characters)');
    const whole = items
      .filter((it) => r.text.split('\n').some((l) => l.startsWith(`- #${it.id} `) && l.includes(it.content)))
      .map((it) => it.id);
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.length).toBeLessThan(10);
    await waitUntil(() => noteWritten(`${mem}.recalled`), 'the search note');
    const stale = await runAish(['--data-dir', data, 'memory', 'review', '--stale', '--json'], { home, env: fake.env() });
    const left = (JSON.parse(stale.stdout) as Array<{ id: number }>).map((x) => x.id).sort((a, b) => a - b);
    expect(left).toEqual(items.map((it) => it.id).filter((id) => !whole.includes(id)));
  });

  it('refuses an unknown option in the REPL with one line', async () => {
    const { home, args } = prepared();
    const r = await runAish(args, { home, env: fake.env(), input: ':memory review --old\n' });
    expect(r.stdout + r.stderr).toContain('unknown option "--old" — :memory review [--stale]');
  });
});
