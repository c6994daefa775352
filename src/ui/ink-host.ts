/**
 * The engine's host for the Ink REPL. Output goes into the UiStore in order, even though
 * rendering Markdown needs a lazily imported module; questions become an inline prompt.
 */
import type { Engine } from '../engine/engine';
import type { AskOptions, EngineHost, OutputItem } from '../engine/host';
import type { UiStore } from './store';

type MarkdownModule = typeof import('./markdown');

export interface InkHostControls {
  host: EngineHost;
  /** The answer to the pending question ('' = Enter, null = nobody/cancelled). */
  answer(text: string | null): void;
  /** Load the Markdown renderer ahead of the first answer. */
  preloadMarkdown(): void;
  attach(engine: Engine): void;
}

export function createInkHost(store: UiStore, opts: { color: boolean; width: () => number; onHandOff: (active: boolean) => Promise<void> }): InkHostControls {
  let markdown: Promise<MarkdownModule> | null = null;
  let chain: Promise<void> = Promise.resolve();
  let pending: ((a: string | null) => void) | null = null;
  let engine: Engine | null = null;

  const loadMarkdown = () => (markdown ??= import('./markdown'));

  const render = async (item: OutputItem): Promise<string | undefined> => {
    if (!item.markdown || !item.text) return undefined;
    try {
      const md = await loadMarkdown();
      return md.renderMarkdown(item.text, { width: opts.width(), color: opts.color });
    } catch {
      return undefined; // plain text is always a fine fallback
    }
  };

  const host: EngineHost = {
    print(item) {
      // Keep output in order: a Markdown answer that is still rendering holds back what follows.
      chain = chain.then(async () => store.addItem(item, await render(item)));
    },
    liveStart(kind, label) {
      store.liveStart(kind, label);
    },
    liveText(text) {
      store.liveAppend(text);
    },
    liveEnd() {
      store.liveEnd();
    },
    async ask(question: string, o?: AskOptions) {
      await chain; // everything printed before the question is on screen first
      store.flush();
      return new Promise<string | null>((resolve) => {
        pending = resolve;
        store.setAsk({ question, ...(o?.initial !== undefined && { initial: o.initial }) });
      });
    },
    async withTerminal<T>(fn: () => Promise<T>): Promise<T> {
      await chain;
      await opts.onHandOff(true);
      try {
        return await fn();
      } finally {
        await opts.onHandOff(false);
      }
    },
    statusChanged() {
      if (engine) store.setStatus(engine.status());
    },
  };

  return {
    host,
    answer(text) {
      const r = pending;
      pending = null;
      store.setAsk(null);
      r?.(text);
    },
    preloadMarkdown() {
      void loadMarkdown().catch(() => undefined);
    },
    attach(e) {
      engine = e;
    },
  };
}
