/** Finished items leave React's state once Ink has written them; a redraw brings every one back. */
import { blankStatus } from '../../../src/core/status';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { Scrollback } from '../../../src/frontends/repl/scrollback';
import { UiStore } from '../../../src/frontends/repl/store';
import { useSyncExternalStore } from 'react';

const status = blankStatus();

function View({ store }: { store: UiStore }) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return <Scrollback store={store} snap={snap} epoch={0} width={60} />;
}

describe('UiStore.markWritten', () => {
  it('drops the items up to the id written, keeps later ones, and rerender returns all of them in order', () => {
    const store = new UiStore(status);
    for (const text of ['one', 'two', 'three']) store.addItem({ kind: 'assistant', text, markdown: true }, `<${text}>`);
    const gen = store.getSnapshot().gen;
    store.markWritten(store.getSnapshot().items[1]!.id);
    expect(store.getSnapshot().items.map((e) => e.item.text)).toEqual(['three']);
    expect(store.getSnapshot().gen).toBe(gen + 1);
    store.markWritten(0); // nothing that old is left: no change
    expect(store.getSnapshot().gen).toBe(gen + 1);

    store.rerender((item) => `[${item.text}]`);
    expect(store.getSnapshot().items.map((e) => e.rendered)).toEqual(['[one]', '[two]', '[three]']);
  });

  it('a written item keeps its text, not its rendering, until a redraw renders it again', () => {
    const store = new UiStore(status);
    store.addItem({ kind: 'assistant', text: 'answer', markdown: true }, 'RENDERED');
    store.markWritten(store.getSnapshot().items[0]!.id);
    store.rerender(() => undefined);
    expect(store.getSnapshot().items.map((e) => [e.item.text, e.rendered])).toEqual([['answer', undefined]]);
  });
});

describe('Scrollback', () => {
  it('prints each item once and then holds none of them', async () => {
    const store = new UiStore(status);
    const t = render(<View store={store} />);
    store.addItem({ kind: 'info', text: 'first line' });
    store.addItem({ kind: 'info', text: 'second line' });
    store.flush();
    await vi.waitFor(() => expect(store.getSnapshot().items).toHaveLength(0));
    store.addItem({ kind: 'info', text: 'third line' });
    store.flush();
    await vi.waitFor(() => expect(store.getSnapshot().items).toHaveLength(0));
    // ink-testing-library's frame holds all the static output written so far.
    const all = t.lastFrame() ?? '';
    for (const line of ['first line', 'second line', 'third line']) expect(all.split(line)).toHaveLength(2);
    t.unmount();
    store.dispose();
  });
});

describe('written blocks of one answer', () => {
  it('become one item again, rendered whole at a redraw; an answer that does not continue stays apart', () => {
    const store = new UiStore(status);
    store.addItem({ kind: 'assistant', text: 'first block\n\n', markdown: true }, 'R1');
    store.addItem({ kind: 'assistant', text: 'second ', markdown: true }, 'R2', { continues: true });
    store.addItem({ kind: 'assistant', text: 'block', markdown: true, interrupted: true }, 'R3', { continues: true });
    store.addItem({ kind: 'assistant', text: 'another answer', markdown: true }, 'R4');
    const items = store.getSnapshot().items;
    store.markWritten(items[1]!.id); // written in two batches: the answer's blocks still join up
    store.markWritten(items[3]!.id);
    store.rerender((item) => `<${item.text}>`);
    expect(store.getSnapshot().items.map((e) => [e.rendered, e.item.interrupted ?? false])).toEqual([
      ['<first block\n\nsecond block>', true],
      ['<another answer>', false],
    ]);
  });

  it('blocks not written yet when a resize redraws join their answer too, so no blank line between blocks is lost', () => {
    const store = new UiStore(status);
    store.addItem({ kind: 'assistant', text: '1. a list\n2. item\n\n', markdown: true }, 'R1');
    store.markWritten(store.getSnapshot().items[0]!.id);
    // Streamed in after the list, not yet written by Ink when the terminal narrows.
    store.addItem({ kind: 'assistant', text: '> a quote\n\n', markdown: true }, '\nR2', { continues: true });
    store.addItem({ kind: 'assistant', text: 'the end', markdown: true }, '\nR3', { continues: true });
    store.rerender((item) => `<${item.text}>`);
    expect(store.getSnapshot().items.map((e) => e.rendered)).toEqual(['<1. a list\n2. item\n\n> a quote\n\nthe end>']);
  });
});
