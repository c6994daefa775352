/**
 * A resize redraws the scrollback at the new width (terminal-size.ts): read through a terminal
 * emulator, it must not bring back what Ctrl-L cleared, nor lose the blank lines between Markdown blocks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const isStatus = (l: string) => /^fast( \(gpt-4o-mini\))? │ .*ctx /.test(l);
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

async function start(cols: number, rows = 30): Promise<PtySession> {
  const s = spawnAish([], { home: tmpDir(), env: fake.env(), cols, rows });
  sessions.push(s);
  await s.waitFor(/^fast .*│ ctx/m);
  await s.settle();
  return s;
}

describe('resize after Ctrl-L and while Markdown streams', () => {
  it('Ctrl-L, then a narrower terminal: what was cleared stays cleared', async () => {
    const s = await start(100);
    fake.server.enqueue({ text: 'The answer before the clear mentions zebras.' });
    s.write('first question\r');
    await s.waitFor('zebras');
    await s.settle();
    s.write('\x0c');
    await s.settle();
    expect(s.screen.allLines().join('\n')).not.toContain('zebras');
    fake.server.enqueue({ text: 'The answer after the clear mentions otters.' });
    s.write('second question\r');
    await s.waitFor('otters');
    await s.settle();
    s.resize(50, 30);
    await s.settle();
    const lines = s.screen.allLines();
    const all = lines.join('\n');
    expect(all).not.toContain('zebras');
    expect(all).not.toContain('first question');
    expect(
      lines.filter((l) => l === '› second question'),
      all,
    ).toHaveLength(1);
    expect(
      lines.filter((l) => l.includes('otters')),
      all,
    ).toHaveLength(1);
    expect(
      lines.filter((l) => isStatus(l)),
      all,
    ).toHaveLength(1);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
