/**
 * Keys typed during start-up, before Ink mounts: the pre-drawn prompt echoes them and hands them to
 * Ink (first-frame.ts), so none is lost or doubled, and Enter submits exactly once, in order.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { promptsReceived } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

function start(home = tmpDir()): PtySession {
  const s = spawnAish([], { home, env: fake.env() });
  sessions.push(s);
  return s;
}

/** Ink's frames start with the synchronized-output mark; the pre-drawn prompt never writes it. */
const inkMounted = (s: PtySession) => waitUntil(() => s.raw().includes('\x1b[?2026h'), "Ink's first frame");
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const prompts = (n: number) => promptsReceived(fake.server, n);

describe('typing during start-up', () => {
  it('keys typed before and right after the prompt shows are all kept, once, in order', async () => {
    const s = start();
    s.write('he'); // before anything is on screen
    await pause(5);
    s.write('l');
    await s.waitFor('›');
    s.write('l');
    await pause(5);
    s.write('o');
    await inkMounted(s);
    await s.waitFor('› hello');
    s.write(' there\r');
    expect(await prompts(1)).toEqual(['hello there']);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('a Backspace typed before Ink mounts is honoured', async () => {
    const s = start();
    await s.waitFor('›');
    s.write('abx');
    await pause(5);
    s.write('\x7f');
    s.write('c');
    await inkMounted(s);
    await s.settle(150);
    s.write('\r');
    expect(await prompts(1)).toEqual(['abc']);
  });

  it('Enter typed before Ink mounts submits exactly once, and keys after it stay in order', async () => {
    fake.server.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const s = start();
    s.write('one\r');
    await s.waitFor('›');
    s.write('two');
    await s.waitFor('first answer');
    await s.waitFor('› two');
    s.write('\r');
    await s.waitFor('second answer');
    expect(await prompts(2)).toEqual(['one', 'two']);
  });

  it('the pre-drawn prompt echoes a key typed as soon as it shows', async () => {
    const s = start();
    await s.waitFor('›');
    s.write('q');
    await s.waitFor('› q');
    await inkMounted(s);
    await s.settle(150);
    expect(s.screen.screenLines().join('\n')).toContain('› q');
    s.write('\r');
    expect(await prompts(1)).toEqual(['q']);
  });

  it("a config error before the first frame takes the launcher's prompt line off the screen", async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(join(home, '.config', 'aish', 'config.ts'), 'export default { this is not valid');
    const s = start(home);
    expect(await s.exitCode()).toBe(2);
    const screen = s.screen.screenLines().join('\n');
    expect(screen).toContain('aish: config');
    expect(screen).not.toContain('›');
    expect(s.raw()).toContain('\x1b[?2004l'); // bracketed paste off again
  });
});
