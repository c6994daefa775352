/** Session lists in a terminal: rows too long hang-wrap at word boundaries, every continuation at one depth. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok' } });
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' });
const pty = ptySessions(env);

const LONG = 'please explain how the deploy script works for the staging environment and what it needs';
/** What the list shows of the title (it is cut with … past 80 characters). */
const SHOWN = LONG.slice(0, LONG.lastIndexOf(' ', 79));

/** Two sessions with a long first prompt, one of them saved (mark `+`), the other unmarked. */
async function twoSessions(home: string, data: string[]): Promise<void> {
  expect((await runAish(data, { home, env: env(), input: `${LONG}\n:save kept\n` })).code).toBe(0);
  expect((await runAish(data, { home, env: env(), input: `${LONG}\n` })).code).toBe(0);
}

/** Fits, every continuation row indented 4, and no word cut: the rows read back as the title. */
function checkWrapped(lines: string[], width: number, sessions: number): void {
  for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(width);
  const continuation = lines.filter((l) => /^ {3,}\S/.test(l));
  expect(continuation.length).toBeGreaterThan(0);
  expect(new Set(continuation.map((l) => /^ */.exec(l)![0].length))).toEqual(new Set([4]));
  const flowed = lines.join(' ').replace(/\s+/g, ' ');
  expect(flowed.split(SHOWN).length - 1, flowed).toBe(sessions);
}

describe('session lists wrap like the other lists', () => {
  it('aish sessions list at 100 columns: hang-wrapped, no word cut', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    await twoSessions(home, data);
    const s = pty(home, [...data, 'sessions', 'list'], { cols: 100, rows: 30 });
    expect(await s.exitCode()).toBe(0);
    const lines = s
      .text()
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '');
    checkWrapped(lines, 100, 3); // :save made a copy
  });

  it(':sessions at 40 columns: continuation rows all indented 4, marked or not', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    await twoSessions(home, data);
    const s = pty(home, [...data, '--resume', 'kept'], { cols: 40, rows: 40 });
    await s.waitFor(/resumed/);
    const mark = s.text().length;
    s.write(':sessions\r');
    await s.waitFor(/continue\s+one\s+with\s+:resume\s+NAME/, { from: mark });
    await s.settle();
    const lines = s
      .text()
      .slice(mark)
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '');
    const list = lines.slice(lines.findIndex((l) => l.startsWith('› :sessions')) + 1, lines.findIndex((l) => /NAME/.test(l)) + 1);
    checkWrapped(list, 40, 4); // and the resumed one
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
