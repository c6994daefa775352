/**
 * The settled frame kept for the next start (bin/frame-cache.cjs, frame-watch.ts): the launcher
 * draws it before the bundle loads, `mem N` included, and Ink writes nothing over it when its own
 * first frame is the same. A stale or wrong cache never leaves a wrong screen.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { promptsReceived, systemText } from '../helpers/openai-server';
import { spawnAish, stripAnsi, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

const item = (id: number) => JSON.stringify({ id, ts: `2025-01-0${id}T00:00:00Z`, kind: 'fact', content: `fact number ${id}` });
const memoryFile = (home: string) => join(home, '.local', 'share', 'aish', 'memory.jsonl');
const cacheFile = (home: string) => join(home, '.cache', 'aish', 'first-frame.json');

function start(home: string): PtySession {
  const s = spawnAish([], { home, env: fake.env() });
  sessions.push(s);
  return s;
}

/** A home with `n` memory items whose settled frame a first start has kept. */
async function keptHome(n: number): Promise<string> {
  const home = tmpDir();
  mkdirSync(join(home, '.local', 'share', 'aish'), { recursive: true });
  writeFileSync(memoryFile(home), Array.from({ length: n }, (_, i) => item(i + 1)).join('\n') + '\n', { mode: 0o600 });
  const s = start(home);
  await s.waitFor(`mem ${n}`);
  await waitUntil(() => existsSync(cacheFile(home)), 'the settled frame kept');
  s.write('\x04');
  expect(await s.exitCode()).toBe(0);
  return home;
}

const statusLines = (s: PtySession) => s.screen.screenLines().filter((l) => l.includes('fast (gpt-4o-mini)'));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const prompts = (n: number) => promptsReceived(fake.server, n);

describe('the settled frame kept for the next start', () => {
  it('the next start shows the whole frame, mem N included, in its first write, and Ink writes nothing over it', async () => {
    const home = await keptHome(2);
    const s = start(home);
    await s.waitFor('mem 2');
    // Everything up to mem 2 came in one piece: the frame the launcher drew.
    expect(stripAnsi(s.raw())).not.toContain('mem …');
    await s.settle(600); // Ink has mounted by now
    expect(s.raw()).not.toContain('\x1b[?2026h'); // no frame of Ink's was written
    expect(statusLines(s)).toHaveLength(1);
    s.write('hello\r');
    expect(await prompts(1)).toEqual(['hello']);
    await s.waitFor('echo: hello');
    await s.settle(150);
    expect(statusLines(s)).toHaveLength(1);
    expect(s.screen.screenLines().filter((l) => l.startsWith('›')).length).toBeGreaterThanOrEqual(1);
  });

  it('after a hand edit of memory.jsonl the next start never shows the old count', async () => {
    const home = await keptHome(2);
    appendFileSync(memoryFile(home), item(3) + '\n');
    const s = start(home);
    await s.waitFor('mem 3');
    await s.settle(300);
    expect(stripAnsi(s.raw())).not.toContain('mem 2');
    expect(statusLines(s)).toHaveLength(1);
  });

  it('keys typed while the early frame is up are kept once, in order', async () => {
    const home = await keptHome(1);
    const s = start(home);
    s.write('he');
    await s.waitFor('mem 1');
    s.write('l');
    await pause(5);
    s.write('lo');
    await s.waitFor('› hello');
    await s.settle(400);
    expect(statusLines(s)).toHaveLength(1);
    s.write(' you\r');
    expect(await prompts(1)).toEqual(['hello you']);
  });

  it("a kept frame that is not what Ink draws is replaced by Ink's, with nothing left over", async () => {
    const home = await keptHome(2);
    const data = JSON.parse(readFileSync(cacheFile(home), 'utf8')) as { entries: Array<{ frame: string }> };
    data.entries[0]!.frame = data.entries[0]!.frame.replace('mem 2', 'mem 7');
    writeFileSync(cacheFile(home), JSON.stringify(data));
    const s = start(home);
    await s.waitFor('mem 7'); // drawn early: the files it names have not changed
    await waitUntil(() => statusLines(s).some((l) => l.includes('mem 2')), "Ink's own frame");
    await s.settle(300);
    expect(statusLines(s)).toHaveLength(1);
    expect(s.screen.screenLines().join('\n')).not.toContain('mem 7');
    // This start kept its own frame: the one after it draws mem 2.
    await waitUntil(() => readFileSync(cacheFile(home), 'utf8').includes('mem 2'), 'the frame kept again');
  });

  it('with both caches in use, a hand edit during the session followed by :memory inject is honoured', async () => {
    const home = await keptHome(2); // the first start left the memory index and the frame
    expect(existsSync(`${memoryFile(home)}.index`)).toBe(true);
    const s = start(home);
    await s.waitFor('mem 2');
    await s.settle(400);
    appendFileSync(
      memoryFile(home),
      `${JSON.stringify({ id: 9, ts: '2025-02-01T00:00:00Z', kind: 'context', content: 'Project uses pnpm' })}\n`,
    );
    s.write(':memory inject\r');
    await s.waitFor(/injected 3 of 3/);
    await waitUntil(() => statusLines(s).some((l) => l.includes('mem 3')), 'mem 3 on the status line');
    s.write('hello\r');
    await fake.server.waitForRequests(1);
    expect(systemText(fake.server.requests[0]!)).toContain('Project uses pnpm');
  });

  it('a first start with no memory file yet: its first frame is final (mem 0), Ink writes nothing over it, and it is kept', async () => {
    const home = tmpDir();
    const s = start(home);
    await s.waitFor('mem 0');
    await s.settle(600); // Ink has mounted by now
    expect(stripAnsi(s.raw())).not.toContain('mem …');
    expect(s.raw()).not.toContain('\x1b[?2026h');
    await waitUntil(() => existsSync(cacheFile(home)), 'the settled frame kept');
    s.write('hi\r');
    expect(await prompts(1)).toEqual(['hi']);
  });

  it("a first start with a small memory file: mem N is in the command line's first frame, and Ink writes nothing over it", async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.local', 'share', 'aish'), { recursive: true });
    writeFileSync(memoryFile(home), [1, 2, 3].map(item).join('\n') + '\n', { mode: 0o600 });
    const s = start(home);
    await s.waitFor('mem 3');
    await s.settle(600);
    expect(stripAnsi(s.raw())).not.toContain('mem …');
    expect(s.raw()).not.toContain('\x1b[?2026h');
    s.write('hi\r');
    await fake.server.waitForRequests(1);
    expect(systemText(fake.server.requests[0]!)).toContain('fact number 3');
  });

  it("a small memory file with a broken line: the warning shows and the screen is Ink's, with one status line", async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.local', 'share', 'aish'), { recursive: true });
    writeFileSync(memoryFile(home), `${item(1)}\n{"id": 2, broken\n${item(3)}\n`, { mode: 0o600 });
    const s = start(home);
    await s.waitFor('mem 2');
    await s.waitFor(/unreadable line skipped/);
    await s.settle(300);
    expect(statusLines(s)).toHaveLength(1);
  });
});
