/** vi keys in a real pseudo-terminal: `:set keys vi`, normal-mode edits on ASCII, CJK and emoji, then emacs again. */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { ptySessions, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());
const ESC = '\x1b';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The mode sign of the prompt row on the screen (the last row that has one). */
function promptMode(s: PtySession): string | undefined {
  const row = s.screen.screenLines().findLast((l) => /\[[IN]\] ›/.test(l));
  return row?.match(/\[([IN])\] ›/)?.[1];
}

/**
 * Type each key as a person would, one read each. After an Esc, wait until the prompt shows [N]:
 * on a busy machine a pause alone is not enough, and Esc read together with the next key is Alt-key.
 */
async function type(s: PtySession, keys: string[]): Promise<void> {
  for (const k of keys) {
    if (k !== ESC) {
      s.write(k);
      await sleep(40);
      continue;
    }
    // Every Esc here leaves insert mode: wait for [I] first, so a stale [N] is not taken for the new one.
    await waitMode(s, 'I');
    s.write(k);
    await waitMode(s, 'N');
  }
}

async function waitMode(s: PtySession, mode: 'I' | 'N'): Promise<void> {
  const end = Date.now() + 10_000;
  while (promptMode(s) !== mode) {
    if (Date.now() > end) throw new Error(`prompt never showed [${mode}]; screen:\n${s.screen.screenLines().join('\n')}`);
    await sleep(20);
  }
}

async function sent(s: PtySession, keys: string[], n: number): Promise<string> {
  await type(s, keys);
  s.write('\r');
  return lastUserText((await fake.server.waitForRequests(n))[n - 1]!);
}

describe('vi keys in a pseudo-terminal', () => {
  it('normal-mode motions and edits act by character on ASCII, CJK and emoji; emacs keys work after :set keys emacs', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(':set keys vi\r');
    await s.waitFor('keys vi');
    await type(s, ['foo bar baz', ESC]);
    await s.waitFor('[N]');
    const line = await sent(
      s,
      // dw, w cw, I, 0 x, A, b b x x x u, 2h… over "日本語" and "👍🏽"
      ['0', 'd', 'w', 'w', 'c', 'w', 'qux', ESC, 'I', '日本語 ', ESC, '0', 'x', 'A', ' 👍🏽 ok', ESC, 'b', 'b', 'x', 'x', 'x', 'u'],
      1,
    );
    expect(line).toBe('本語 bar qux ok');
    await s.waitFor('echo: 本語 bar qux ok');
    // counts: 2w then d2w, 3x
    expect(await sent(s, ['one two three four five', ESC, '0', '2', 'w', 'd', '2', 'w', '0', '3', 'x'], 2)).toBe(' two five');
    await s.waitFor('two five');
    s.write(':set keys emacs\r');
    await s.waitFor('keys emacs');
    // Ctrl-A and Ctrl-K are emacs keys again; Esc does not switch modes.
    expect(await sent(s, ['world', '\x01', 'hello ', '\x05', ' xyz', '\x02', '\x02', '\x02', '\x02', '\x0b'], 3)).toBe('hello world');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
