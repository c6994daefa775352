/**
 * The live area while something runs, read through the terminal emulator: a streaming answer wraps
 * at word boundaries (also in the window over a tall answer), and a running !command or a failed
 * call waiting to be retried shows a spinner with the elapsed time or the wait.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

async function start(cols: number, rows: number): Promise<PtySession> {
  const s = spawnAish([], { home: tmpDir(), env: fake.env(), cols, rows });
  sessions.push(s);
  await s.waitFor(/^fast .*│ ctx/m);
  await s.settle();
  return s;
}

const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

describe('streaming', () => {
  it('lines break between words while the answer streams; a long paragraph moves its finished lines to the scrollback', async () => {
    const WORDS = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
      'hotel',
      'india',
      'juliett',
      'kilo',
      'lima',
      'mike',
      'november',
    ];
    const words = Array.from({ length: 320 }, (_, i) => WORDS[(i * 7) % WORDS.length]!);
    const text = `${words.join(' ')} omega`;
    const known = new Set([...WORDS, 'omega']);
    fake.server.enqueue({ text, chunkSize: 3, intervalMs: 4 });
    const s = await start(40, 14);
    s.write('tell me\r');
    const samples: string[][] = [];
    const timer = setInterval(() => {
      if (!s.screen.syncing) samples.push(s.screen.screenLines());
    }, 15);
    await s.waitFor(/\bomega\b/);
    clearInterval(timer);
    let windows = 0;
    for (const lines of samples) {
      const prompt = lines.findLastIndex((l) => l.startsWith('›'));
      let from = lines.findLastIndex((l) => l.startsWith('› tell me')) + 1;
      if (lines[from]?.startsWith('… ')) {
        windows++;
        from++;
      }
      const live = lines.slice(from, prompt).filter((l) => l !== '' && !SPINNER.test(l));
      live.forEach((row, i) => {
        const tokens = row.split(' ');
        tokens.forEach((t, j) => {
          // Only the very last word on screen may still be arriving.
          const arriving = i === live.length - 1 && j === tokens.length - 1;
          if (!arriving) expect(known.has(t), `"${t}" in row "${row}" of\n${lines.join('\n')}`).toBe(true);
        });
        expect(row.length).toBeLessThanOrEqual(40);
      });
    }
    expect(samples.length).toBeGreaterThan(5);
    // Finished lines of the paragraph go to the scrollback as they complete (lineCut), so the live
    // area never needs its `… N more lines above` window.
    expect(windows, 'the paragraph piled up in the live area').toBe(0);
    // And the finished answer keeps the same breaks: every row of it is whole words.
    await s.settle();
    const all = s.screen.allLines();
    const answer = all.slice(
      all.findLastIndex((l) => l.startsWith('› tell me')) + 1,
      all.findLastIndex((l) => l.startsWith('›')),
    );
    expect(answer.join(' ').split(/\s+/).filter(Boolean)).toEqual(text.split(' '));
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('a long paragraph', () => {
  it('streams a line at a time and ends up once, whole, in the scrollback', async () => {
    const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india'];
    const text = `Firstword ${Array.from({ length: 600 }, (_, i) => WORDS[(i * 4) % WORDS.length]!).join(' ')} omega.`;
    fake.server.enqueue({ text, chunkSize: 4, intervalMs: 1, chunksPerTick: 3 });
    const s = await start(60, 16);
    s.write('tell me\r');
    await s.waitFor(/\bomega\./);
    await s.settle();
    const all = s.screen.allLines();
    const answer = all.slice(
      all.findLastIndex((l) => l.startsWith('› tell me')) + 1,
      all.findLastIndex((l) => l.startsWith('›')),
    );
    expect(answer.join(' ').split(/\s+/).filter(Boolean)).toEqual(text.split(' '));
    expect(all.filter((l) => l.includes('Firstword')).length).toBe(1);
    expect(all.some((l) => l.startsWith('… '))).toBe(false);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('spinners', () => {
  it('while a !command runs: the command, then `running · Ns · Ctrl-C to cancel`, gone when it ends', async () => {
    const s = await start(80, 20);
    s.write('!sleep 2\r');
    await s.waitFor(/running · 1s · Ctrl-C to cancel/);
    const lines = s.screen.screenLines();
    const at = lines.findIndex((l) => SPINNER.test(l));
    expect(lines[at], lines.join('\n')).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running · 1s · Ctrl-C to cancel$/);
    expect(lines[at - 1]).toBe('$ sleep 2');
    await s.waitFor(/\[exit 0\]/);
    await s.settle();
    expect(s.screen.screenLines().filter((l) => SPINNER.test(l))).toEqual([]);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('while a failed call waits to be retried: `retrying in Ns (attempt 2/3)`, then the answer', async () => {
    fake.server.enqueue({ status: 500, error: { message: 'overloaded' }, headers: { 'retry-after': '2' } }, { text: 'recovered fine' });
    const s = await start(80, 20);
    s.write('hello\r');
    await s.waitFor(/retrying in 2s \(attempt 2\/3\) · Ctrl-C to cancel/);
    expect(s.screen.screenLines().filter((l) => SPINNER.test(l))).toEqual([
      expect.stringMatching(/^. retrying in 2s \(attempt 2\/3\) · Ctrl-C to cancel$/),
    ]);
    await s.waitFor(/retrying in 1s \(attempt 2\/3\)/);
    await s.waitFor('recovered fine');
    await s.settle();
    expect(s.screen.screenLines().filter((l) => SPINNER.test(l))).toEqual([]);
    expect(fake.server.requests).toHaveLength(2);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Ctrl-C during the wait cancels the retry', async () => {
    fake.server.enqueue({ status: 503, headers: { 'retry-after': '5' } }, { text: 'should not be asked for' });
    const s = await start(80, 20);
    s.write('hello\r');
    await s.waitFor(/retrying in \ds \(attempt 2\/3\)/);
    s.write('\x03');
    await s.waitFor(/interrupted/);
    await s.settle();
    expect(fake.server.requests).toHaveLength(1);
    expect(s.screen.screenLines().filter((l) => SPINNER.test(l))).toEqual([]);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
