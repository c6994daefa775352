/** A long paragraph streams into the scrollback a line at a time (lineCut), reading like its one-piece rendering. */
import { blankStatus } from '../../../src/core/status';
import { describe, expect, it } from 'vitest';
import { createInkHost } from '../../../src/frontends/repl/ink-host';
import { renderMarkdown } from '../../../src/frontends/repl/markdown';
import { UiStore } from '../../../src/frontends/repl/store';
import { lineCut } from '../../../src/frontends/repl/stream-blocks';
import { wrapWords } from '../../../src/util/width';

const status = blankStatus();
const tick = () => new Promise((r) => setTimeout(r, 5));
const WORDS = 'the terminal shell streams every answer quickly while the model writes long paragraphs'.split(' ');
const prose = (n: number) => Array.from({ length: n }, (_, i) => WORDS[(i * 5) % WORDS.length]).join(' ');

describe('lineCut', () => {
  it('cuts at the start of the last visual line of plain prose', () => {
    const text = prose(40);
    const lines = wrapWords(text, 30);
    const cut = lineCut(text, 30);
    expect(cut).toBe(text.lastIndexOf(lines.at(-1)!));
    expect(text.slice(cut)).toBe(lines.at(-1));
  });

  it('cuts a paragraph of several lines at the start of the line being written (line breaks are kept)', () => {
    // Deliberately changed (issue 32): a line break in a paragraph is a line of its own when rendered.
    expect(lineCut(`${prose(10)}\n${prose(10)}`, 30)).toBe(prose(10).length + 1);
    expect(lineCut('Line 001\nLine 002\nLine 0', 30)).toBe('Line 001\nLine 002\n'.length);
    // not while the line being written could still be a setext underline or a table's delimiter row
    for (const last of ['', '-', '==', '|--', ' :-']) expect(lineCut(`Line 001\n${last}`, 30), last).toBe(0);
    // not across open markup, a table's header row, a link definition, or before a new block
    expect(lineCut('a **b\nc** d', 30)).toBe(0);
    expect(lineCut('a | b\nc', 30)).toBe(0);
    expect(lineCut('[x]: https://example.com\nc', 30)).toBe(0);
    expect(lineCut('intro\n- item', 30)).toBe(0);
  });

  it('does not cut a single line, or a block that is not a paragraph', () => {
    expect(lineCut('short one', 30)).toBe(0);
    for (const start of ['- ', '1. ', '# ', '> ', '| ', '```', '    ']) expect(lineCut(start + prose(30), 30), start).toBe(0);
  });

  it('does not cut inside open inline markup, nor before a new-block look-alike', () => {
    // `**bold` opened on the first line and closed on the last: no line end in between is safe.
    const bold = `${prose(3)} **${prose(20)}** end`;
    const cut = lineCut(bold, 30);
    expect(cut === 0 || (bold.slice(0, cut).match(/\*\*/g) ?? []).length % 2 === 0).toBe(true);
    const code = `${prose(3)} \`${prose(20)}\` end`;
    const c2 = lineCut(code, 30);
    expect(c2 === 0 || (code.slice(0, c2).match(/`/g) ?? []).length % 2 === 0).toBe(true);
    // The rest would start with "- " (a list item) if cut there: that line end is skipped.
    const dash = `${'x'.repeat(27)} - ${prose(10)}`;
    expect(dash.slice(lineCut(dash, 28)).startsWith('- ')).toBe(false);
  });
});

describe('a long paragraph streamed through the host', () => {
  it('goes to the scrollback line by line and reads exactly like its one-piece rendering', async () => {
    const store = new UiStore(status);
    const controls = createInkHost(store, { color: false, width: () => 40, onHandOff: async () => {} });
    controls.preloadMarkdown();
    for (let i = 0; i < 20; i++) await tick();
    const answer = `Intro paragraph.\n\n${prose(200)}.\n\nLast one.`;
    const { host } = controls;
    host.liveStart('assistant');
    let longestLive = 0;
    for (let i = 0; i < answer.length; i += 5) {
      host.liveText(answer.slice(i, i + 5));
      store.flush();
      longestLive = Math.max(longestLive, store.getSnapshot().live?.text.length ?? 0);
    }
    host.liveEnd();
    host.print({ kind: 'assistant', text: answer, markdown: true });
    for (let i = 0; i < 20; i++) await tick();
    const items = store.getSnapshot().items;
    expect(items.length).toBeGreaterThan(10); // committed a line or so at a time
    expect(longestLive).toBeLessThan(2 * 40 + 10); // the live area never held more than ~2 lines
    expect(items.map((it) => it.rendered ?? it.item.text).join('\n')).toBe(renderMarkdown(answer, { width: 40, color: false }));
    expect(items.map((it) => it.item.text).join('')).toBe(answer);
    // Once written, the blocks are kept as the one answer they came from: a redraw renders it whole.
    store.markWritten(items.at(-1)!.id);
    controls.rewrap();
    expect(store.getSnapshot().items.map((it) => it.rendered)).toEqual([renderMarkdown(answer, { width: 40, color: false })]);
    store.dispose();
  });

  it('a paragraph of one short line after another: the live area keeps one line, and it reads like its one-piece rendering', async () => {
    const store = new UiStore(status);
    const controls = createInkHost(store, { color: false, width: () => 40, onHandOff: async () => {} });
    controls.preloadMarkdown();
    for (let i = 0; i < 20; i++) await tick();
    const lines = Array.from({ length: 120 }, (_, i) => `Line ${String(i + 1).padStart(3, '0')}`);
    const answer = `Counting:\n\n${lines.join('\n')}\n\nDone, **all** of them.`;
    const { host } = controls;
    host.liveStart('assistant');
    let longestLive = 0;
    for (let i = 0; i < answer.length; i += 9) {
      host.liveText(answer.slice(i, i + 9));
      store.flush();
      longestLive = Math.max(longestLive, store.getSnapshot().live?.text.split('\n').length ?? 0);
    }
    host.liveEnd();
    host.print({ kind: 'assistant', text: answer, markdown: true });
    for (let i = 0; i < 20; i++) await tick();
    const items = store.getSnapshot().items;
    expect(longestLive).toBeLessThanOrEqual(3);
    expect(items.map((it) => it.rendered ?? it.item.text).join('\n')).toBe(renderMarkdown(answer, { width: 40, color: false }));
    expect(renderMarkdown(answer, { width: 40, color: false }).split('\n').slice(2, 122)).toEqual(lines);
    store.dispose();
  });
});
