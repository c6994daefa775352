/**
 * A resize redraws the scrollback at the new width (terminal-size.ts): read through a terminal
 * emulator, it must not bring back what Ctrl-L cleared, nor lose the blank lines between Markdown blocks.
 * A block of a streaming answer spends about a frame in the store before Ink writes it; a redraw in
 * that frame used to print it without its blank line. Fifty redraws during one stream land in that
 * frame several times, so the test does not depend on one lucky resize.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { renderMarkdown } from '../../src/frontends/repl/markdown';
import { spawnAish, stripAnsi, type PtySession } from '../helpers/pty';
import { Screen } from '../helpers/screen';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

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

  it('narrowed 100 → 50 a column at a time while Markdown streams: every redraw keeps one blank line between blocks', async () => {
    const text = answer().join('\n\n');
    // A steady stream, a block every two frames or so: the redraws below land at every phase of a
    // block's way to the scrollback, the frame between leaving the live area and Ink writing it too.
    fake.server.enqueue({ text, chunkSize: 4, intervalMs: 6 });
    const s = await start(100, 40);
    s.write('plan\r');
    await s.waitFor('B01');
    /** Each redraw: where its clear starts in raw(), where the next resize cut it short, the width. */
    const redraws: { from: number; to: number; cols: number }[] = [];
    for (let cols = 99; cols >= 50; cols--) {
      const at = s.raw().length;
      const last = redraws.at(-1);
      if (last) last.to = at;
      s.resize(cols, 40);
      // Narrower: the screen and scrollback are cleared and everything is printed again at this width.
      await waitUntil(() => s.raw().includes(CLEAR_ALL, at), `the redraw at ${cols} columns`, { intervalMs: 2 });
      const from = s.raw().indexOf(CLEAR_ALL, at);
      await s.waitFor(/› plan[\s\S]*ctx/, { from: stripAnsi(s.raw().slice(0, from)).length });
      redraws.push({ from, to: Infinity, cols });
    }
    await s.waitFor('B80');
    await s.settle();
    // Each redraw as a terminal of that width shows it, until the next resize.
    let checked = 0;
    const wrong: string[] = [];
    let first = '';
    for (const r of redraws) {
      const screen = new Screen(r.cols, 40);
      screen.write(s.raw().slice(r.from, r.to));
      const bad = spacingErrors(screen.allLines(), text, r.cols);
      checked += bad.checked;
      if (bad.errors.length === 0) continue;
      wrong.push(`${r.cols} columns: ${bad.errors.join('; ')}`);
      first ||= screen.allLines().join('\n');
    }
    expect(wrong, `the first redraw that broke the spacing:\n${first}`).toEqual([]);
    expect(checked).toBeGreaterThan(redraws.length);

    /** The answer's blocks (split at blank lines), each by its first line's start. */
    const shape = () => {
      const lines = s.screen.allLines();
      const from = lines.lastIndexOf('› plan');
      const body = lines
        .slice(
          from + 1,
          lines.findLastIndex((l) => l.startsWith('›')),
        )
        .join('\n')
        .trim();
      return body.split(/\n\n+/).map((b) => b.slice(0, 12));
    };
    const streamed = shape();
    expect(streamed).toHaveLength(answer().length);
    s.resize(100, 40);
    await s.settle();
    s.resize(50, 40);
    await s.settle();
    expect(streamed).toEqual(shape());
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});

const CLEAR_ALL = '\x1b[2J\x1b[3J\x1b[H';

/**
 * Eighty short Markdown blocks, their marks (B01…B80) in their first lines. Each looks different
 * rendered than in the live area (bold, bullets, quote bars, indented code, table rules), so a
 * block found by its rendered first line is in the scrollback, not still streaming.
 */
function answer(): string[] {
  const out: string[] = [];
  for (let i = 1; i <= 80; i++) {
    const b = `B${String(i).padStart(2, '0')}`;
    const kinds = [
      `**${b}** a short paragraph of a few words.`,
      `- ${b} an item\n- and another one`,
      `**${b}** a longer paragraph, with enough words in it to wrap once or twice at fifty columns.`,
      `> ${b} a quote of a line`,
      `\`\`\`sh\necho ${b}\n\`\`\``,
      `1) ${b} first\n2) second`,
      `| ${b} | b |\n|---|---|\n| 1 | 2 |`,
      `* ${b} one more item`,
    ];
    out.push(kinds[i % kinds.length]!);
  }
  return out;
}

/**
 * The screen's answer against its full rendering at `cols`: each block in the scrollback that the
 * next one follows there ends with one blank line, no more, no less.
 */
function spacingErrors(screen: string[], text: string, cols: number): { checked: number; errors: string[] } {
  const full = stripAnsi(renderMarkdown(text, { width: cols, color: true })).split('\n');
  const starts = full.flatMap((l, i) => (l !== '' && (i === 0 || full[i - 1] === '') ? [i] : []));
  // A block is found by its first line, and a fenced one by the code line under its fence as well.
  const keys = starts.map((i) => full.slice(i, full[i]!.startsWith('```') ? i + 2 : i + 1));
  const lines = screen.slice(screen.lastIndexOf('› plan') + 1);
  const at: (number | undefined)[] = [];
  let pos = 0;
  for (const key of keys) {
    const i = lines.findIndex((_, j) => j >= pos && key.every((k, n) => lines[j + n] === k));
    at.push(i < 0 ? undefined : i);
    if (i >= 0) pos = i + 1;
  }
  const errors: string[] = [];
  let checked = 0;
  for (let k = 0; k + 1 < at.length; k++) {
    const a = at[k];
    const b = at[k + 1];
    if (a === undefined || b === undefined) continue;
    checked++;
    const gap = lines.slice(a, b);
    if (gap.at(-1) !== '' || gap.filter((l) => l === '').length !== 1) errors.push(`${full[starts[k]!]} → ${full[starts[k + 1]!]}`);
  }
  return { checked, errors };
}
