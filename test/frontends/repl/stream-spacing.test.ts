/** A streamed answer reaches the scrollback in blocks; together they must read like its one-piece rendering (issue 13, defect 13). */
import { blankStatus } from '../../../src/core/status';
import { describe, expect, it } from 'vitest';
import { createInkHost } from '../../../src/frontends/repl/ink-host';
import { renderMarkdown } from '../../../src/frontends/repl/markdown';
import { UiStore } from '../../../src/frontends/repl/store';

const ANSWER = [
  '# Setting up',
  'Install the tools first.',
  '',
  '- node 20',
  '- pnpm',
  '',
  '```bash',
  'pnpm install',
  '',
  'pnpm test',
  '```',
  '',
  '| tool | version |',
  '|------|---------|',
  '| node | 20 |',
  '',
  'Then run it.',
].join('\n');

const status = blankStatus();
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('a streamed answer in the scrollback', () => {
  it('has a blank line between heading, paragraph, list, code block and table, and keeps the fence and label', () => {
    const out = renderMarkdown(ANSWER, { width: 60, color: false });
    expect(out).toBe(
      [
        '# Setting up',
        '',
        'Install the tools first.',
        '',
        '• node 20',
        '• pnpm',
        '',
        '```bash',
        '  pnpm install',
        '',
        '  pnpm test',
        '```',
        '',
        'tool │ version',
        '─────┼────────',
        'node │ 20',
        '',
        'Then run it.',
      ].join('\n'),
    );
  });

  it('committed block by block while streaming, reads exactly like the one-piece rendering', async () => {
    const store = new UiStore(status);
    const controls = createInkHost(store, { color: false, width: () => 60, onHandOff: async () => {} });
    controls.preloadMarkdown();
    for (let i = 0; i < 20; i++) await tick(); // the renderer is loaded before the stream starts
    const { host } = controls;
    host.liveStart('assistant');
    for (let i = 0; i < ANSWER.length; i += 7) host.liveText(ANSWER.slice(i, i + 7));
    host.liveEnd();
    host.print({ kind: 'assistant', text: ANSWER, markdown: true });
    for (let i = 0; i < 20; i++) await tick();
    const items = store.getSnapshot().items;
    expect(items.length).toBeGreaterThan(2); // it was really committed in pieces
    expect(items.map((it) => it.rendered ?? it.item.text).join('\n')).toBe(renderMarkdown(ANSWER, { width: 60, color: false }));
    store.dispose();
  });
});
