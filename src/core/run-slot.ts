/**
 * The one piece of work Ctrl-C can cancel (a model call, a shell command), and the count of model
 * calls that failed. The status line's "busy" is this slot being taken.
 */
export class RunSlot {
  private running: AbortController | null = null;
  private work: Promise<unknown> | null = null;
  private failures = 0;

  /** `changed`: busy went on or off (the status line follows it). */
  constructor(private readonly changed: () => void) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Model calls of this session that failed (after retries). */
  get failedCalls(): number {
    return this.failures;
  }

  callFailed(): void {
    this.failures++;
  }

  /** Run something Ctrl-C can cancel. */
  async cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ac = new AbortController();
    this.running = ac;
    this.changed();
    try {
      const work = fn(ac.signal);
      this.work = work;
      return await work;
    } finally {
      if (this.running === ac) {
        this.running = null;
        this.work = null;
      }
      this.changed();
    }
  }

  /**
   * Cancel what is running and give it up to `ms` to end, so what it keeps on the way out (an
   * answer cut short goes to the session log, marked interrupted) is kept before aish exits.
   */
  async cancelAndSettle(ms: number): Promise<void> {
    const work = this.work;
    if (!this.cancel() || !work) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([work.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  /** Cancel what is running. True when something was running. */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }
}
