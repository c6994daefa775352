/**
 * UI state outside React: the engine's host writes here, Ink reads snapshots through
 * useSyncExternalStore. Changes are flushed at most every FRAME_MS, so a fast stream causes ~30
 * renders a second, not one per token (measured: per-token updates cost 10× the time and bytes).
 */
import type { RetryNotice } from '../../broker/types';
import type { AskOptions, OutputItem } from '../../core/host';
import type { StatusInfo } from '../../core/status';
import { ownCopy } from './stream-blocks';

const FRAME_MS = 33;

export interface UiItem {
  id: number;
  item: OutputItem;
  /** Pre-rendered Markdown (ANSI) for assistant answers. */
  rendered?: string;
  /** The text goes on from the previous item's (a streamed answer cut into blocks). */
  continues?: boolean;
}

export interface LiveState {
  kind: 'assistant' | 'shell' | 'tool';
  label?: string;
  text: string;
  startedAt: number;
  /** The stream ended; the text stays until its finished rendering replaces it (no spinner). */
  finished?: boolean;
  /** The call failed and is tried again at `at` (ms since the epoch). */
  retry?: { at: number; attempt: number; of: number };
}

export interface AskState extends AskOptions {
  question: string;
}

export interface UiSnapshot {
  /** Finished items Ink has not written yet (the ones it wrote are dropped: markWritten). */
  items: UiItem[];
  /** Changes when written items are dropped or all come back for a redraw: <Static> starts over. */
  gen: number;
  live: LiveState | null;
  ask: AskState | null;
  status: StatusInfo;
  notice: string | null;
  /** A full-screen child has the terminal: render nothing live, read no keys. */
  handedOff: boolean;
  /** Text for the line editor (`:rewind` gives a prompt back); a new object each time it is set. */
  draft: { text: string } | null;
}

export class UiStore {
  private snap: UiSnapshot;
  private listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private liveText = '';
  private dirty = false;
  private busyNotice: string | null = null;
  /** Items already written, without their rendering: kept only to print them again at a new width. */
  private written: UiItem[] = [];

  constructor(status: StatusInfo) {
    this.snap = { items: [], gen: 0, live: null, ask: null, status, notice: null, handedOff: false, draft: null };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): UiSnapshot => this.snap;

  private update(patch: Partial<UiSnapshot>, now = false): void {
    this.snap = { ...this.snap, ...patch };
    this.schedule(now);
  }

  private schedule(now: boolean): void {
    this.dirty = true;
    if (now) {
      this.flush();
      return;
    }
    this.timer ??= setTimeout(() => this.flush(), FRAME_MS);
  }

  /** Publish pending changes to React. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.dirty) return;
    this.dirty = false;
    if (this.snap.live && this.snap.live.text !== this.liveText)
      this.snap = { ...this.snap, live: { ...this.snap.live, text: this.liveText } };
    for (const fn of this.listeners) fn();
  }

  /** A finished item; `clearLive` replaces a finished live area with it in the same frame. */
  addItem(item: OutputItem, rendered?: string, opts: { clearLive?: boolean; continues?: boolean } = {}): void {
    const entry: UiItem = {
      id: this.nextId++,
      item,
      ...(rendered !== undefined && { rendered }),
      ...(opts.continues && { continues: true }),
    };
    const patch: Partial<UiSnapshot> = { items: [...this.snap.items, entry] };
    if (opts.clearLive && this.snap.live?.finished) {
      patch.live = null;
      this.liveText = '';
    }
    this.update(patch);
  }

  /** Ink has written the items up to `lastId`: React need not hold them (or their renderings) any more. */
  markWritten(lastId: number): void {
    const items = this.snap.items;
    let n = 0;
    while (n < items.length && items[n]!.id <= lastId) n++;
    if (n === 0) return;
    for (let i = 0; i < n; i++) this.keep(items[i]!);
    this.update({ items: items.slice(n), gen: this.snap.gen + 1 });
  }

  /** A written item, kept for a redraw; the blocks of one answer become one item again, as it is rendered whole at a new width. */
  private keep(e: UiItem): void {
    const prev = this.written.at(-1);
    if (e.continues && prev)
      this.written[this.written.length - 1] = { id: prev.id, item: { ...e.item, text: ownCopy(prev.item.text + e.item.text) } };
    else this.written.push({ id: e.id, item: e.item });
  }

  /** Ctrl-L cleared the screen and scrollback: what was written is gone, and a redraw after a resize does not bring it back. */
  forgetWritten(): void {
    this.written = [];
  }

  /** Every item, written or not, to draw again after a resize: `render` gives an item's new rendering (undefined: its text). */
  rerender(render: (item: OutputItem) => string | undefined): void {
    // The pieces of one answer not written yet join the rest of it, as keep() joins written ones: a
    // piece rendered alone would lose the blank line its place in the answer gives it.
    const whole: UiItem[] = [];
    for (const e of [...this.written, ...this.snap.items]) {
      const prev = whole.at(-1);
      if (e.continues && prev) whole[whole.length - 1] = { id: e.id, item: { ...e.item, text: ownCopy(prev.item.text + e.item.text) } };
      else whole.push(e);
    }
    const items = whole.map((e) => {
      const r = render(e.item);
      return r === undefined ? e : { ...e, rendered: r };
    });
    this.written = [];
    this.update({ items, gen: this.snap.gen + 1 }, true);
  }

  liveStart(kind: LiveState['kind'], label?: string): void {
    this.liveText = '';
    this.update({ live: { kind, text: '', startedAt: Date.now(), ...(label !== undefined && { label }) } }, true);
  }

  liveRetry(r: RetryNotice): void {
    if (!this.snap.live) return;
    this.update({ live: { ...this.snap.live, retry: { at: Date.now() + r.waitMs, attempt: r.attempt, of: r.of } } }, true);
  }

  liveAppend(text: string): void {
    this.liveText += text;
    this.schedule(false);
  }

  /** Replace the live text (what is left after finished blocks moved to the scrollback). */
  liveSet(text: string): void {
    this.liveText = text;
    this.schedule(false);
  }

  liveEnd(): void {
    this.liveText = '';
    this.update({ live: null });
  }

  /** The stream ended: show its last text now, keep it until the finished item replaces it. */
  liveFinish(): void {
    if (!this.snap.live) return;
    this.update({ live: { ...this.snap.live, text: this.liveText, finished: true } }, true);
  }

  setAsk(ask: AskState | null): void {
    this.update({ ask }, true);
  }

  setStatus(status: StatusInfo): void {
    // A notice about the work running ("stopping Norris…") goes when it ends.
    if (!status.busy && this.busyNotice && this.snap.notice === this.busyNotice) {
      this.busyNotice = null;
      this.update({ status, notice: null }, true);
      return;
    }
    this.update({ status });
  }

  /** `whileBusy`: the notice is about the work running now and is cleared when it ends. */
  setNotice(notice: string | null, opts: { whileBusy?: boolean } = {}): void {
    this.busyNotice = opts.whileBusy ? notice : null;
    if (notice !== this.snap.notice) this.update({ notice }, true);
  }

  setDraft(text: string): void {
    this.update({ draft: { text } }, true);
  }

  setHandedOff(handedOff: boolean): void {
    this.update({ handedOff }, true);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
