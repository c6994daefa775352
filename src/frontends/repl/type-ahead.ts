/**
 * Type-ahead: lines submitted while a turn runs wait here and run in order once it ends, instead of
 * being refused. Plain TypeScript (no Ink), so the queueing rules are unit-tested on their own; the
 * App only feeds it keys and shows `queued`.
 */

export interface TypeAheadDeps {
  /** Work is running that this queue may not have started (the engine is busy). */
  busy(): boolean;
  /** Run one line; resolves when it is done. 'stop' (the line quit aish): nothing more runs. */
  run(text: string): Promise<'stop' | void>;
  /** The queued lines changed (the App redraws them). */
  changed(queued: readonly string[]): void;
}

export type SubmitResult = 'ran' | 'queued' | 'ignored';

export class TypeAhead {
  private queue: string[] = [];
  /** A line started here has not finished yet (a meta command may run without the engine busy). */
  private running = false;
  private stopped = false;

  constructor(private readonly deps: TypeAheadDeps) {}

  get queued(): readonly string[] {
    return this.queue;
  }

  /** Run `text` now when nothing runs or waits, else queue it behind the rest (strict order). */
  submit(text: string): SubmitResult {
    if (this.stopped) return 'ignored';
    if (this.idle() && this.queue.length === 0) {
      this.start(text);
      return 'ran';
    }
    // An empty Enter while busy has nothing to send later.
    if (!text.trim()) return 'ignored';
    this.queue.push(text);
    this.deps.changed(this.queue);
    return 'queued';
  }

  /** Esc: take back the newest queued line (the one typed last). */
  removeLast(): string | undefined {
    const text = this.queue.pop();
    if (text !== undefined) this.deps.changed(this.queue);
    return text;
  }

  /**
   * Run the next queued line if nothing runs any more. Called when a line started here ends, and
   * by the App when the engine stops being busy (work this queue did not start).
   */
  next(): void {
    if (this.stopped || !this.idle()) return;
    const text = this.queue.shift();
    if (text === undefined) return;
    this.deps.changed(this.queue);
    this.start(text);
  }

  private idle(): boolean {
    return !this.running && !this.deps.busy();
  }

  private start(text: string): void {
    this.running = true;
    const done = (r: 'stop' | void) => {
      this.running = false;
      if (r === 'stop') {
        this.stopped = true;
        this.queue = [];
        this.deps.changed(this.queue);
        return;
      }
      this.next();
    };
    void this.deps.run(text).then(done, () => done());
  }
}
