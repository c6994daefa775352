/**
 * The engine's host for the Ink REPL. Output goes into the UiStore in order, even though rendering
 * Markdown needs a lazily imported module; questions become an inline prompt.
 *
 * A streaming answer is cut into finished Markdown blocks as it arrives (stream-blocks.ts): each
 * goes to the scrollback rendered, the live area keeps only the block being written, and when the
 * answer ends only that last block is left to render.
 */
import type { AskOptions, EngineHost, OutputItem } from '../../core/host';
import { hangWrap } from '../../util/hang';
import { osc52 } from '../../util/osc52';
import { writeRaw } from '../../util/output-guard';
import type { UiStore } from './store';
import { BlockSplitter, lineCut, ownCopy } from './stream-blocks';

type MarkdownModule = typeof import('./markdown');

export interface InkHostControls {
  host: EngineHost;
  /** The answer to the pending question ('' = Enter, null = nobody/cancelled). */
  answer(text: string | null): void;
  /** Load the Markdown renderer ahead of the first answer. */
  preloadMarkdown(): void;
  /** Render the finished answers again at the terminal's width (after it changed). */
  rewrap(): void;
}

interface Stream {
  /** The answer after its last cut: what the live area shows. Never the whole answer, which each piece would copy. */
  tail: string;
  /** How much of the answer went to the scrollback. */
  committed: number;
  /** What went, in order (the store holds these strings anyway): the finished answer is checked against them. */
  parts: string[];
  splitter: BlockSplitter;
  /** A block of this answer is in the scrollback: the next one starts after a blank line. */
  shown: boolean;
  /** The last piece was cut at a line end inside a paragraph: the next one continues it, no blank line. */
  open: boolean;
  /** A piece of this answer is in the store: the next one continues its text. */
  cut: boolean;
}

/** A block after an earlier one of the same answer: the blank line its one-piece rendering has. */
const after = (s: Stream, rendered: string | undefined): string | undefined =>
  rendered && s.shown && !s.open ? `\n${rendered}` : rendered;

export function createInkHost(
  store: UiStore,
  opts: { color: boolean; width: () => number; rows?: () => number; onHandOff: (active: boolean) => Promise<void> },
): InkHostControls {
  let markdown: Promise<MarkdownModule> | null = null;
  let md: MarkdownModule | null = null; // once loaded, used synchronously while streaming
  let chain: Promise<void> = Promise.resolve();
  let pending: ((a: string | null) => void) | null = null;
  let stream: Stream | null = null;

  const loadMarkdown = () =>
    (markdown ??= import('./markdown').then((m) => {
      md = m;
      return m;
    }));

  const renderText = async (text: string): Promise<string | undefined> => {
    if (!text) return undefined;
    try {
      return (await loadMarkdown()).renderMarkdown(text, { width: opts.width(), color: opts.color });
    } catch {
      return undefined; // plain text is always a fine fallback
    }
  };

  const enqueue = (fn: () => Promise<void> | void) => {
    chain = chain.then(fn).catch(() => undefined);
  };

  /** Move the first `n` characters of the tail to the scrollback. */
  const commit = (m: MarkdownModule, s: Stream, n: number, open: boolean) => {
    // A copy: a slice would keep the tail it was cut from alive for as long as the item lives.
    const part = ownCopy(s.tail.slice(0, n));
    s.tail = s.tail.slice(n);
    s.committed += n;
    s.parts.push(part);
    const rendered = after(s, m.renderMarkdown(part, { width: opts.width(), color: opts.color }));
    if (rendered) s.shown = true;
    s.open = open;
    const continues = s.cut;
    s.cut = true;
    enqueue(() => store.addItem({ kind: 'assistant', text: part, markdown: true }, rendered, { continues }));
  };

  /** Move the finished blocks, and the finished lines of a long paragraph, to the scrollback. */
  const commitBlocks = (s: Stream) => {
    const m = md;
    if (!m) return; // not loaded yet: the block stays live until it is
    const cut = s.splitter.safe;
    if (cut > s.committed) commit(m, s, cut - s.committed, false);
    const line = lineCut(s.tail, opts.width());
    if (line > 0) commit(m, s, line, true);
  };

  const host: EngineHost = {
    interactive: true,
    print(given) {
      const item = withHang(given, opts.width());
      const s = stream;
      if (item.kind === 'assistant' && s) {
        stream = null;
        // The answer that was streaming: only what was not committed is left to render.
        const goesOn = startsWithAll(item.text, s.parts);
        const rest = goesOn ? ownCopy(item.text.slice(s.committed)) : item.text;
        const continues = goesOn && s.cut;
        enqueue(async () => store.addItem({ ...item, text: rest }, after(s, await renderText(rest)), { clearLive: true, continues }));
        return;
      }
      enqueue(async () => store.addItem(item, item.markdown ? await renderText(item.text) : undefined, { clearLive: true }));
    },
    liveStart(kind, label) {
      stream =
        kind === 'assistant'
          ? { tail: '', committed: 0, parts: [], splitter: new BlockSplitter(), shown: false, open: false, cut: false }
          : null;
      store.liveStart(kind, label);
    },
    liveText(text) {
      const s = stream;
      if (!s) {
        store.liveAppend(text);
        return;
      }
      s.tail += text;
      s.splitter.push(text);
      // A paragraph longer than a line may have finished lines to cut (lineCut checks the length first).
      if (text.includes('\n') || s.tail.length > opts.width()) commitBlocks(s);
      store.liveSet(s.tail);
    },
    liveEnd() {
      // Keep the last text on screen until its rendering replaces it (print), instead of a blank.
      store.liveFinish();
      // The core prints the finished answer in the same tick as liveEnd, so by the time this runs its
      // rendering is queued: clearing after it (queued from here) runs once it is done. Nothing
      // replaced the live text by then (e.g. an answer with no text): clear it.
      enqueue(() =>
        enqueue(() => {
          if (store.getSnapshot().live?.finished) store.liveEnd();
        }),
      );
    },
    liveRetry(r) {
      store.liveRetry(r);
    },
    async ask(question: string, o?: AskOptions) {
      await chain; // everything printed before the question is on screen first
      store.flush();
      return new Promise<string | null>((resolve) => {
        pending = resolve;
        store.setAsk({ question, ...(o?.initial !== undefined && { initial: o.initial }), ...(o?.keys && { keys: o.keys }) });
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
    status(s) {
      store.setStatus(s);
    },
    // A screenful, leaving room for the prompt and the status line.
    pageLines: () => Math.max(10, (opts.rows?.() ?? 24) - 6),
    draft(text) {
      store.setDraft(text);
    },
    // Invisible to the terminal's screen, so Ink's frame is not disturbed.
    copy: (text) => writeRaw(process.stdout, osc52(text)),
  };

  return {
    host,
    answer(text) {
      const r = pending;
      pending = null;
      // The question and its answer stay in the scrollback, as a shell's prompt line does.
      const q = store.getSnapshot().ask?.question;
      if (q !== undefined) host.print({ kind: 'info', text: `${q}${text ?? '^C'}` });
      store.setAsk(null);
      r?.(text);
    },
    preloadMarkdown() {
      void loadMarkdown().catch(() => undefined);
    },
    rewrap() {
      const m = md; // not loaded: nothing was rendered yet, every item shows its text
      store.rerender((item) => (m && item.markdown ? m.renderMarkdown(item.text, { width: opts.width(), color: opts.color }) : undefined));
    },
  };
}

/**
 * aish's own lines (lists, notices, errors) wrapped here at spaces, before Ink would: its wrap cuts a
 * word at the edge and starts the next row with the space. A list's rows keep their hanging indent.
 * Command output and answers (rendered Markdown) are left as they are.
 */
function withHang(item: OutputItem, width: number): OutputItem {
  const ours = item.kind === 'error' || item.kind === 'warn' || (item.kind === 'info' && !item.markdown);
  if (item.hang === undefined && !ours) return item;
  const mark = item.kind === 'error' || item.kind === 'warn' ? 2 : 0; // `✗ ` / `! ` before the text
  return { ...item, text: hangWrap(item.text, width - mark, item.hang ?? 0, { fromEdge: item.hangFromEdge === true }) };
}

/** `text` starts with `parts` one after the other (as with their concatenation, without making it). */
function startsWithAll(text: string, parts: readonly string[]): boolean {
  let at = 0;
  for (const p of parts) {
    if (!text.startsWith(p, at)) return false;
    at += p.length;
  }
  return true;
}
