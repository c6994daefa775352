/**
 * Every vi key the README lists, typed in a real pseudo-terminal on ASCII, CJK and emoji words; the
 * check is the line the model server received. Each case is written once over the ASCII words
 * "cat dog emu" and replayed on the other scripts by swapping each letter for one character of
 * theirs (every word stays three characters of one word class), so a key that moved by code unit
 * or by display column instead of by character shows up as a different line.
 */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { ptySessions, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());
const ESC = '\x1b';
const BASE = 'cat dog emu';

/** Each script's character for the letters of BASE and for the inserted letters P…T. */
const SCRIPTS: Record<string, Record<string, string>> = {
  ascii: Object.fromEntries(Array.from('catdogemuPQRST', (c) => [c, c])),
  cjk: { c: '日', a: '本', t: '語', d: '中', o: '文', g: '字', e: '한', m: '국', u: '어', P: '山', Q: '川', R: '花', S: '月', T: '星' },
  // Skin tone, ZWJ families, flags and a variation selector: each one character of several code points.
  emoji: {
    c: '👍🏽',
    a: '👨‍👩‍👧',
    t: '🇯🇵',
    d: '❤️',
    o: '👩🏾‍💻',
    g: '🏳️‍🌈',
    e: '😀',
    m: '🇫🇷',
    u: '🧑‍🚀',
    P: '🐱',
    Q: '🎉',
    R: '🚀',
    S: '🌍',
    T: '🍣',
  },
};

/**
 * Keys typed after BASE and Esc (so normal mode, on BASE's last character): space-separated
 * groups, each character of a group one key, `⎋` Esc, `+XY` text typed in insert mode. `want` is
 * the line sent, `at` the character the cursor is drawn on just before Enter.
 */
const CASES: Array<{ keys: string; want: string; at?: string; shows: string }> = [
  // 0 to the start, 3l onto the blank, h back onto "t"; x there, l, x; $ to the end and x.
  { keys: '0 3l h x l x $ x', want: 'ca og em', at: 'm', shows: 'h l 0 $ x, a count on l' },
  // 2b from the end onto "dog", x; e to that word's end, x; w w onto "emu", x; b back onto "o", x.
  { keys: '$ 2b x e x 0 w w x b x', want: 'cat  mu', shows: 'w b e, a count on b' },
  { keys: '0 2e x 0 2w x', want: 'cat do mu', at: 'm', shows: 'counts on e and w' },
  { keys: '0 dw 2x', want: 'g emu', at: 'g', shows: 'dw, a count on x' },
  { keys: '0 d2w', want: 'emu', at: 'e', shows: 'd2w' },
  { keys: '0 2dw', want: 'emu', at: 'e', shows: '2dw' },
  { keys: '0 w de x', want: 'cat emu', at: 'e', shows: 'de' },
  { keys: '$ db h x', want: 'cat dogu', at: 'u', shows: 'db' },
  { keys: '0 w l d$ d0', want: 'd', at: 'd', shows: 'd$ d0' },
  { keys: 'dd i +PQ', want: 'PQ', shows: 'dd, i' },
  // cw on "dog", a after it, I at the line start, A at its end, b to that word's start and i.
  { keys: '0 w cw +P ⎋ a +Q ⎋ I +R ⎋ A +S ⎋ b i +T', want: 'Rcat PQ TemuS', at: 'e', shows: 'cw a I A b i' },
  // Three x, then u takes back only the last.
  { keys: '0 x x x u', want: 't dog emu', at: 't', shows: 'u' },
  // A count on u: 2u takes back the last two.
  { keys: '0 x x x 2u', want: 'at dog emu', at: 'a', shows: 'a count on u' },
  // The second u takes back the line's first insert (typed before any i), as in vi.
  { keys: 'x u u i +P', want: 'P', shows: 'u on the first insert' },
];

const mapText = (text: string, abc: Record<string, string>): string => Array.from(text, (c) => abc[c] ?? c).join('');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The mode sign of the prompt row on the screen (the last row that has one). */
function promptMode(s: PtySession): string | undefined {
  const row = s.screen.screenLines().findLast((l) => /\[[IN]\] ›/.test(l));
  return row?.match(/\[([IN])\] ›/)?.[1];
}

/** The character the prompt's block cursor (inverse video) was last drawn on. */
function cursorCell(s: PtySession): string | undefined {
  return Array.from(s.raw().matchAll(/\x1b\[7m(.*?)\x1b\[27m/gu)).at(-1)?.[1];
}

/** Wait until the prompt shows `mode`: Esc then acts before the next key can join it as Alt-key. */
async function waitMode(s: PtySession, mode: 'I' | 'N'): Promise<void> {
  const end = Date.now() + 10_000;
  while (promptMode(s) !== mode) {
    if (Date.now() > end) throw new Error(`prompt never showed [${mode}]; screen:\n${s.screen.screenLines().join('\n')}`);
    await sleep(20);
  }
}

/** Type the keys one by one, as a person does. */
async function type(s: PtySession, keys: string, abc: Record<string, string>): Promise<void> {
  for (const group of keys.split(' ')) {
    if (group === '⎋') {
      await waitMode(s, 'I');
      s.write(ESC);
      await waitMode(s, 'N');
    } else if (group.startsWith('+')) {
      s.write(mapText(group.slice(1), abc));
      await sleep(40);
    } else {
      for (const k of group) {
        s.write(k);
        await sleep(30);
      }
    }
  }
}

describe('every vi key in a pseudo-terminal', () => {
  for (const [script, abc] of Object.entries(SCRIPTS)) {
    it(`motions, edits and counts act by character on ${script} words`, async () => {
      const s = start(tmpDir());
      await s.waitFor('fast (gpt-4o-mini)');
      s.write(':set keys vi\r');
      await s.waitFor('keys vi');
      const base = mapText(BASE, abc);
      let n = 0;
      for (const c of CASES) {
        s.write(base);
        await sleep(40);
        if (n === 0) {
          // The prompt shows the mode: insert while typing, normal after Esc, with the block
          // cursor back on the last character (the whole of it, however many code points).
          await expect.poll(() => s.screen.screenLines().some((l) => l.includes(`[I] › ${base}`))).toBe(true);
        }
        s.write(ESC);
        await waitMode(s, 'N');
        if (n === 0) {
          expect(s.screen.screenLines().some((l) => l.includes(`[N] › ${base}`))).toBe(true);
          await expect.poll(() => cursorCell(s)).toBe(abc.u);
        }
        await type(s, c.keys, abc);
        // Where the block cursor is drawn, where the line is known to end up with it on a character.
        if (c.at) await expect.poll(() => cursorCell(s), { message: `${c.shows}: the cursor` }).toBe(mapText(c.at, abc));
        const mark = s.text().length;
        s.write('\r');
        n += 1;
        const got = lastUserText((await fake.server.waitForRequests(n))[n - 1]!);
        expect(got, `${c.shows}: ${c.keys}`).toBe(mapText(c.want, abc));
        // The answer is in and the next line starts in insert mode.
        await s.waitFor('echo: ', { from: mark });
        await waitMode(s, 'I');
      }
      s.write('\x04');
      expect(await s.exitCode()).toBe(0);
    });
  }

  it('Ctrl-C in normal mode clears the line, and the next line starts in insert mode', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(':set keys vi\r');
    await s.waitFor('keys vi');
    s.write('cat dog');
    await sleep(40);
    s.write(ESC);
    await waitMode(s, 'N');
    s.write('\x03');
    await waitMode(s, 'I');
    // Typed as text, not read as h, e, l, l and o.
    s.write('hello');
    await sleep(40);
    s.write('\r');
    expect(lastUserText((await fake.server.waitForRequests(1))[0]!)).toBe('hello');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('k in normal mode brings back the prompt before, to edit and send again', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(':set keys vi\r');
    await s.waitFor('keys vi');
    s.write('first prompt');
    await sleep(40);
    s.write('\r');
    await s.waitFor('echo: first prompt');
    await waitMode(s, 'I');
    s.write(ESC);
    await waitMode(s, 'N');
    s.write('k');
    await expect.poll(() => s.screen.screenLines().some((l) => l.includes('[N] › first prompt'))).toBe(true);
    await type(s, '0 x', SCRIPTS.ascii!);
    s.write('\r');
    expect(lastUserText((await fake.server.waitForRequests(2))[1]!)).toBe('irst prompt');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
