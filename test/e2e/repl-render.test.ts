/**
 * What the REPL draws, read through a terminal emulator (test/helpers/screen.ts): long prompts wrap
 * the same in the input line and in their echo at 40/80/120 columns, and a resize leaves no stale
 * copy of the prompt behind and redraws the status line at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
/** The status line, at any width (narrow ones drop the model and the path before mem and ctx). */
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

/** The rows from the last line starting with `› ` up to the status line (the live input area). */
function inputArea(lines: string[]): string[] {
  const status = lines.findLastIndex((l) => isStatus(l));
  const top = lines.slice(0, status).findLastIndex((l) => l.startsWith('› '));
  return lines.slice(top, status);
}

const PROMPTS: Record<string, string> = {
  'x × 150': 'x'.repeat(150),
  url: 'https://example.com/some/very/long/path/with-no-spaces/at-all/index.html?query=abcdefghijklmnopqrstuvwxyz&page=12345',
  'CJK × 72': '日本語のテキスト'.repeat(9),
  emoji: 'party🎉'.repeat(12) + '👨‍👩‍👧‍👦'.repeat(6),
};

describe('long prompts wrap the same while typed and in the scrollback', () => {
  for (const cols of [40, 80, 120]) {
    it(`${cols} columns`, async () => {
      const s = await start(cols);
      for (const [name, text] of Object.entries(PROMPTS)) {
        fake.server.enqueue({ text: 'ok.' });
        s.write(text);
        await s.settle();
        const live = inputArea(s.screen.allLines());
        // The block cursor sits after the text, on the same row or on a row of its own.
        const typed = live.at(-1) === '' ? live.slice(0, -1) : live;
        expect(typed.join('').replace(/^› /, ''), `${name}: every character shown once, the space after › kept`).toBe(text);
        for (const [i, row] of typed.entries()) {
          expect(row.startsWith(' '), `${name}: row ${i} starts with a space: ${row}`).toBe(false);
          if (i < typed.length - 1) expect(row.length, `${name}: row ${i} not full: ${row}`).toBeGreaterThan(0);
        }
        // No row of two characters stranded while the next one is full: rows are filled in order.
        const mark = s.text().length;
        s.write('\r');
        await s.waitFor('ok.', { from: mark });
        await s.settle();
        const all = s.screen.allLines();
        const echoAt = all.findLastIndex(
          (l) => l.startsWith('› ') && l !== '› ' && all.indexOf(l) !== -1 && text.startsWith(l.slice(2, 6)),
        );
        const echo = all.slice(echoAt, echoAt + typed.length);
        expect(echo, `${name}: the echo at ${cols} columns`).toEqual(typed);
        expect(all[echoAt + typed.length], `${name}: the answer follows the echo`).toBe('ok.');
      }
      expect(fake.server.requests.map(lastUserText)).toEqual(Object.values(PROMPTS));
      s.write('\x04');
      expect(await s.exitCode()).toBe(0);
    });
  }

  it('rows are filled by display columns: 150 × x at 40 columns is 38 + 40 + 40 + 32', async () => {
    const s = await start(40);
    s.write('x'.repeat(150));
    await s.settle();
    expect(inputArea(s.screen.allLines())).toEqual([`› ${'x'.repeat(38)}`, 'x'.repeat(40), 'x'.repeat(40), 'x'.repeat(32)]);
    // 72 wide characters: 19 on the first row after `› `, then 20 a row.
    s.write('\x15' + '日本語のテキスト'.repeat(9));
    await s.settle();
    expect(inputArea(s.screen.allLines()).map((r) => [...r.replace(/^› /, '')].length)).toEqual([19, 20, 20, 13]);
    s.write('\x04\x04');
  });
});

/** How many rows of the whole scrollback and screen show this exact text. */
const count = (lines: string[], row: string) => lines.filter((l) => l === row).length;

describe('resize', () => {
  it('120 → 40 → 120 while typing: one prompt, no stale copy, the status line redrawn at once', async () => {
    const s = await start(120, 24);
    const draft = 'please summarize the following notes about the build system and its caching';
    s.write(draft);
    await s.settle();
    expect(s.screen.allLines().at(-1)).toMatch(/^fast \(gpt-4o-mini\) │ .* │ mem \d+ │ ctx/);

    s.resize(40, 24);
    await s.settle();
    const narrow = s.screen.allLines();
    expect(
      narrow.filter((l) => l.startsWith('› ')),
      narrow.join('\n'),
    ).toEqual(['› please summarize the following notes']);
    expect(
      narrow.filter((l) => isStatus(l)),
      narrow.join('\n'),
    ).toHaveLength(1);
    // At 40 columns the path and model give way; mem and ctx stay.
    expect(narrow.at(-1)).toMatch(/^fast .*│ mem \d+ │ ctx/);
    expect(narrow.at(-1)!.length).toBeLessThanOrEqual(40);

    const mark = s.text().length;
    s.resize(120, 24);
    // Redrawn without a key: the full status line comes back within a second.
    await s.waitFor(/mem \d+ │ ctx/, { from: mark, timeoutMs: 1000 });
    await s.settle();
    const wide = s.screen.allLines();
    expect(wide.at(-1)).toMatch(/^fast \(gpt-4o-mini\) │ .* │ mem \d+ │ ctx/);
    expect(
      wide.filter((l) => l.startsWith('› ')),
      wide.join('\n'),
    ).toEqual([`› ${draft}`]);

    fake.server.enqueue({ text: 'done.' });
    s.write('\r');
    await s.waitFor('done.');
    expect(lastUserText(fake.server.requests[0]!)).toBe(draft);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('120 → 40 → 120 after an answer: the answer once, one empty prompt, no stale `›` line', async () => {
    const s = await start(120, 30);
    fake.server.enqueue({
      text: 'The build cache lives in the .cache directory and is keyed by the lockfile hash, so a changed dependency rebuilds everything.',
    });
    s.write('where is the cache?\r');
    await s.waitFor(/rebuilds\s+everything/);
    await s.settle();
    for (const cols of [40, 120]) {
      s.resize(cols, 30);
      await s.settle();
      const lines = s.screen.allLines();
      const at = `${cols} columns:\n${lines.join('\n')}`;
      expect(count(lines, '› where is the cache?'), at).toBe(1);
      expect(
        lines.filter((l) => l.startsWith('›')),
        at,
      ).toEqual(['› where is the cache?', '›']);
      expect(lines.at(-2), at).toBe('›');
      expect(
        lines.filter((l) => l.includes('lockfile')),
        at,
      ).toHaveLength(1);
      expect(
        lines.filter((l) => isStatus(l)),
        at,
      ).toHaveLength(1);
    }
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('120 → 40 while an answer streams: the question and the answer once each, in order', async () => {
    const words = Array.from({ length: 150 }, (_, i) => `w${i}`);
    fake.server.enqueue({ text: words.join(' '), chunkSize: 4, intervalMs: 8 });
    const s = await start(120, 30);
    s.write('stream please\r');
    await s.waitFor('w20 ');
    s.resize(40, 30);
    await s.waitFor(/w149/);
    await s.settle();
    const lines = s.screen.allLines();
    expect(count(lines, '› stream please'), lines.join('\n')).toBe(1);
    const after = lines.slice(
      lines.indexOf('› stream please') + 1,
      lines.findLastIndex((l) => l.startsWith('›')),
    );
    expect(after.join(' ').split(/\s+/), lines.join('\n')).toEqual(words);
    for (const l of after) expect(l.length).toBeLessThanOrEqual(40);
    expect(
      lines.filter((l) => isStatus(l)),
      lines.join('\n'),
    ).toHaveLength(1);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
