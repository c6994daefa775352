/**
 * When capture runs, so it never delays the prompt or exit: in the background of a live aish at the
 * natural boundaries (the first eviction, :clear, the end of a Norris run, every few exchanges), and
 * at quit by handing the session log to a detached process (the front end spawns it). Nothing runs
 * until `minTurns` user turns happened since the last capture, so short sessions make no extra
 * model call; with capture off nothing runs at all.
 */
import type { CaptureMode } from '../config/types';
import { formatError } from '../util/errors';
import type { CaptureDeps, CaptureResult } from './capture';

/** Exchanges between two background captures of a long session, as a multiple of minTurns. */
const PERIODIC_FACTOR = 3;

export interface CaptureHooks {
  mode: CaptureMode;
  minTurns: number;
  /** Built when a capture starts (the summarizer preset may have changed since). */
  deps(): CaptureDeps;
  /** A capture of `path` finished. */
  done(path: string, r: CaptureResult): void;
  warn(text: string): void;
}

interface Running {
  path: string;
  ac: AbortController;
  promise: Promise<void>;
}

export class CaptureScheduler {
  /** User turns in the current log since its last capture began. */
  private since = 0;
  /** Bumped when a new log begins, so a capture of the old one does not count against the new. */
  private generation = 0;
  private readonly running = new Map<string, Running>();
  private warned = false;

  constructor(private readonly hooks: CaptureHooks) {}

  get mode(): CaptureMode {
    return this.hooks.mode;
  }

  get enabled(): boolean {
    return this.hooks.mode !== 'off';
  }

  /** Captures in flight (tests and `close` wait on them). */
  idle(): Promise<void> {
    return Promise.all([...this.running.values()].map((r) => r.promise)).then(() => undefined);
  }

  userTurn(): void {
    this.since++;
  }

  /** A new or resumed log begins: nothing in it is new. */
  reset(): void {
    this.since = 0;
    this.generation++;
  }

  /** After an exchange: a long session is captured every few exchanges. */
  afterTurn(path: string | null): void {
    if (this.since >= PERIODIC_FACTOR * this.hooks.minTurns) this.start(path);
  }

  /** A boundary (eviction, the end of a Norris run): capture when enough happened. */
  boundary(path: string | null): void {
    if (this.since >= this.hooks.minTurns) this.start(path);
  }

  /** `:clear`: the old log is captured in the background; the next one starts from zero. */
  cleared(oldPath: string | null): void {
    this.boundary(oldPath);
    this.reset();
  }

  /**
   * Quit: stop what runs here and say which logs a detached capture should read — the current one
   * when enough is new, and any whose capture was cut short.
   */
  handOff(path: string | null): string[] {
    const out = new Set<string>();
    for (const r of this.running.values()) {
      r.ac.abort();
      out.add(r.path);
    }
    this.running.clear();
    if (this.enabled && path && this.since >= this.hooks.minTurns) out.add(path);
    return [...out];
  }

  private start(path: string | null): void {
    if (!this.enabled || !path || this.running.has(path)) return;
    const covered = this.since;
    const generation = this.generation;
    const ac = new AbortController();
    const promise = (async () => {
      try {
        // The capture prompt and its parsing load with the first capture, not at start-up.
        const { captureSession } = await import('./capture');
        const r = await captureSession(path, this.hooks.deps(), ac.signal);
        if (!r || ac.signal.aborted) return;
        // Turns that came in while the model read the log count toward the next capture.
        if (generation === this.generation) this.since = Math.max(0, this.since - covered);
        this.hooks.done(path, r);
      } catch (err) {
        if (ac.signal.aborted) return;
        if (!this.warned) this.hooks.warn(`capture failed: ${formatError(err)} — the session will be read again at quit`);
        this.warned = true;
      } finally {
        if (this.running.get(path)?.ac === ac) this.running.delete(path);
      }
    })();
    this.running.set(path, { path, ac, promise });
  }
}
