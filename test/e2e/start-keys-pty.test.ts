/**
 * Keys typed while aish starts: nothing reads them before the App's key handler is on (the terminal
 * keeps them), and then each is handled once, in order; Enter typed early submits exactly once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { promptsReceived } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

function start(home = tmpDir()): PtySession {
  const s = spawnAish([], { home, env: fake.env() });
  sessions.push(s);
  return s;
}

const prompts = (n: number) => promptsReceived(fake.server, n);

describe('typing during start-up', () => {
  it('keys typed before and right after the prompt shows are all kept, once, in order', async () => {
    const s = start();
    s.write('he'); // before anything is on screen
    s.write('l');
    await s.waitFor('›');
    s.write('l');
    s.write('o');
    await s.waitFor('› hello');
    s.write(' there\r');
    expect(await prompts(1)).toEqual(['hello there']);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Enter typed before the prompt shows submits exactly once', async () => {
    fake.server.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const s = start();
    s.write('one\r');
    await s.waitFor('first answer');
    // Keys typed before the App reads any arrive in one read: "one⏎two" then looks like a paste.
    // So the next line is typed once the first was handled.
    s.write('two');
    await s.waitFor('› two');
    s.write('\r');
    await s.waitFor('second answer');
    expect(await prompts(2)).toEqual(['one', 'two']);
  });

  it('a Backspace typed before the prompt shows is honoured', async () => {
    const s = start();
    s.write('abx\x7fc');
    await s.waitFor('› abc');
    s.write('\r');
    expect(await prompts(1)).toEqual(['abc']);
  });
});
