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

  it('narrowed 100 → 50 while Markdown streams: one blank line between blocks, as a full redraw has', async () => {
    const blocks = [
      'Here is a plan for the migration, in a few steps that each take a paragraph of explanation so the lines wrap.',
      '```sh\nnpm run build\nnpm test\n```',
      'A second paragraph that is long enough to be cut at line ends while it streams in, many words here to wrap.',
      '1. First, back up the **database** with `pg_dump` and keep it somewhere safe for a week.\n2. Then run the migration.',
      '> A quote that is fairly long and wraps at fifty columns for sure, yes it does wrap.',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      'The end paragraph, with more words to wrap around the edge.',
    ];
    fake.server.enqueue({ text: blocks.join('\n\n'), chunkSize: 5, intervalMs: 12 });
    const s = await start(100, 40);
    s.write('plan\r');
    await s.waitFor('pg_dump');
    // Dragged narrower: a burst of resizes, one redraw at its end while blocks still stream in.
    for (let cols = 95; cols >= 50; cols -= 5) {
      s.resize(cols, 40);
      await s.waitFor('\n', { from: s.text().length }); // a frame drawn at this width before the next step
    }
    await s.waitFor('edge.');
    await s.settle();
    /** The answer's blocks (split at blank lines), each by its first line's start. */
    const shape = () => {
      const lines = s.screen.allLines();
      const from = lines.lastIndexOf('› plan');
      const answer = lines
        .slice(
          from + 1,
          lines.findLastIndex((l) => l.startsWith('›')),
        )
        .join('\n')
        .trim();
      return answer.split(/\n\n+/).map((b) => b.slice(0, 12));
    };
    const streamed = shape();
    expect(streamed).toHaveLength(blocks.length);
    s.resize(100, 40);
    await s.settle();
    s.resize(50, 40);
    await s.settle();
    expect(streamed).toEqual(shape());
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
