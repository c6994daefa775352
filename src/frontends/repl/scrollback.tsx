/**
 * Finished output, printed once above the live frame by Ink's <Static>. Once Ink has written an
 * item, the store drops it from the items React holds (UiStore.markWritten): a long session keeps
 * only what a resize needs to print again, not every rendering.
 */
import { Static, useStdout } from 'ink';
import { useLayoutEffect } from 'react';
import { HistoryItem } from './components/HistoryItem';
import { forgetStaticOutput } from './ink-static-output';
import type { UiSnapshot, UiStore } from './store';

export function Scrollback({ store, snap, epoch, width }: { store: UiStore; snap: UiSnapshot; epoch: number; width: number }) {
  const { stdout } = useStdout();
  const last = snap.items.at(-1)?.id;
  // Ink writes a commit's static output before layout effects run, so by now these items are out.
  useLayoutEffect(() => {
    if (last === undefined) return;
    store.markWritten(last);
    forgetStaticOutput(stdout);
  }, [store, stdout, last]);
  // A new key starts a new <Static> that prints all the items it is given: after the written ones
  // were dropped (gen), and after a full redraw at a new width (epoch, terminal-size.ts).
  return (
    <Static key={`${epoch}.${snap.gen}`} items={snap.items}>
      {(it) => <HistoryItem key={it.id} entry={it} width={width} />}
    </Static>
  );
}
