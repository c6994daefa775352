/**
 * What the conversation knows about itself beyond its turns: the session's latest digest (title,
 * summary, working state), whether the window has started dropping turns, and when capture runs.
 * The working state goes into the system prompt as [session] once it matters — after a resume, or
 * once old turns left the window — and the first eviction is said out loud, once.
 */
import { renderWorkingState, type SessionDigest } from '../sessions/digest';
import { plural } from '../util/time';
import { CaptureScheduler, type CaptureHooks } from './capture-schedule';

export interface KeeperParts extends Pick<CaptureHooks, 'mode' | 'minTurns' | 'deps'> {
  /** The current session log (null before the first turn). */
  logPath(): string | null;
  notice(text: string): void;
  /** The digest changed (the status line and :session show it). */
  changed(): void;
}

export class SessionKeeper {
  readonly capture: CaptureScheduler;
  private latest: SessionDigest | null = null;
  private resumed = false;
  private windowFull = false;

  constructor(private readonly parts: KeeperParts) {
    this.capture = new CaptureScheduler({
      mode: parts.mode,
      minTurns: parts.minTurns,
      deps: () => parts.deps(),
      warn: (text) => parts.notice(text),
      done: (path, r) => {
        // A capture of a log left behind by :clear does not describe this conversation.
        if (path !== this.parts.logPath()) return;
        this.latest = r.digest;
        this.parts.changed();
      },
    });
  }

  get digest(): SessionDigest | null {
    return this.latest;
  }

  /** The [session] block's text, when it should be sent. */
  sessionText(): string | undefined {
    const s = this.latest?.state;
    if (!s || !(this.resumed || this.windowFull)) return undefined;
    return renderWorkingState(s) || undefined;
  }

  /** A session was resumed: its digest (if any) says where it stood. */
  resumedWith(digest: SessionDigest | undefined): void {
    this.latest = digest ?? null;
    this.resumed = true;
    this.windowFull = false;
    this.capture.reset();
  }

  /** `:clear`: the old log is captured in the background; the new conversation knows nothing yet. */
  cleared(oldPath: string | null): void {
    this.capture.cleared(oldPath);
    this.latest = null;
    this.resumed = false;
    this.windowFull = false;
  }

  userTurn(): void {
    this.capture.userTurn();
  }

  /** After an exchange, with how many messages the next request leaves out. */
  afterExchange(evicted: number): void {
    const path = this.parts.logPath();
    if (evicted > 0 && !this.windowFull) {
      this.windowFull = true;
      const folded = this.capture.enabled ? ' (summarised into the working state)' : '';
      this.parts.notice(`context full: ${plural(evicted, 'oldest turn')} left the window${folded}`);
      this.capture.boundary(path);
      this.parts.changed();
      return;
    }
    this.capture.afterTurn(path);
  }

  /** A Norris run ended: a natural boundary. */
  norrisEnded(): void {
    this.capture.boundary(this.parts.logPath());
  }

  /** Quit: the logs a detached capture should read. */
  handOff(): string[] {
    return this.capture.handOff(this.parts.logPath());
  }
}
