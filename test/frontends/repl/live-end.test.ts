/** When a streamed answer ends, its live text stays until the finished rendering replaces it, and no longer. */
import { blankStatus } from '../../../src/core/status';
import { describe, expect, it } from 'vitest';
import { createInkHost } from '../../../src/frontends/repl/ink-host';
import { UiStore } from '../../../src/frontends/repl/store';
import { waitUntil } from '../../helpers/wait';

const status = blankStatus();

function setup() {
  const store = new UiStore(status);
  const controls = createInkHost(store, { color: false, width: () => 60, onHandOff: async () => {} });
  controls.preloadMarkdown();
  return { store, host: controls.host };
}

describe('the end of a streamed answer', () => {
  it('is replaced by its rendering in one step: the live area never clears before the item is there', async () => {
    const { store, host } = setup();
    const seen: Array<{ live: boolean; items: number }> = [];
    store.subscribe(() => seen.push({ live: store.getSnapshot().live !== null, items: store.getSnapshot().items.length }));
    host.liveStart('assistant');
    host.liveText('a short answer');
    host.liveEnd();
    host.print({ kind: 'assistant', text: 'a short answer', markdown: true });
    await waitUntil(() => store.getSnapshot().live === null, 'the live area to clear');
    expect(
      store
        .getSnapshot()
        .items.map((i) => i.rendered ?? i.item.text)
        .join('\n'),
    ).toContain('a short answer');
    // Every state with no live area already holds the finished item.
    expect(seen.filter((s) => !s.live && s.items === 0)).toEqual([]);
  });

  it('clears once everything queued is done when nothing replaces it (an answer with no text)', async () => {
    const { store, host } = setup();
    host.liveStart('assistant');
    host.liveEnd();
    await waitUntil(() => store.getSnapshot().live === null, 'the live area to clear');
    expect(store.getSnapshot().items).toEqual([]);
  });
});
