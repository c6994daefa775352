/**
 * Who owns the session log of a running aish: it is created with the first turn, replaced by a new
 * one on `:clear` or a resume, copied by `:save`. A log that cannot be written is reported and the
 * conversation goes on.
 */
import type { ChatMessage } from '../broker/types';
import type { SessionDigest } from './digest';
import { AishError, formatError } from '../util/errors';
import { lineWarnings } from '../util/line-warnings';
import { turnsToMessages } from './replay';
import { rewindTurns } from './rewind';
import { SessionLog } from './session-log';
import { latestListedSession, loadSession, resolveSession } from './sessions';
import type { NewTurn, SessionMetaInput, Turn } from './types';

export interface ResumedSession {
  name: string;
  messages: ChatMessage[];
  /** The log's turns (for showing the last ones). */
  turns: Turn[];
  /** The session's latest digest (title, summary, working state). */
  digest?: SessionDigest;
  /** Damaged lines that were skipped, as `name.jsonl:LINE: reason`. */
  warnings: string[];
}

export interface RewoundExchanges {
  exchanges: number;
  /** The turns taken back, oldest first: the first is the prompt that opened them. */
  removed: Turn[];
}

/** Turns held while the log cannot be written; past this, the oldest go (the conversation keeps its own copy). */
const MAX_HELD = 1000;

export class SessionRecorder {
  private log: SessionLog | null = null;
  /** Turns not on disk yet (a full disk, a read-only data dir): written, in order, once the log can be. */
  private held: NewTurn[] = [];
  /** Why the log could not be written, while it cannot; the user is told once, not every turn. */
  private failure: string | null = null;

  constructor(
    readonly sessionsDir: string,
    /** Header fields for a new log (directory, model), read when the log is created. */
    private readonly header: () => SessionMetaInput,
    private readonly warn: (text: string) => void,
  ) {}

  get path(): string | null {
    return this.log?.path ?? null;
  }

  get id(): string | null {
    return this.log?.id ?? null;
  }

  /**
   * Append a turn (the log is created on the first). A failure is reported once, not thrown: the
   * turn is held and written with the next one that can be, so freeing space loses nothing.
   */
  append(turn: NewTurn): void {
    this.held.push({ ...turn, ts: turn.ts ?? new Date().toISOString() });
    if (this.held.length > MAX_HELD) this.held.shift();
    this.flush();
  }

  /** Write the held turns; false when some are still not on disk. */
  private flush(): boolean {
    if (this.held.length === 0) return true;
    try {
      this.log ??= SessionLog.create(this.sessionsDir, this.header());
      for (; this.held.length > 0; this.held.shift()) this.log.append(this.held[0]!);
    } catch (err) {
      if (this.failure === null) {
        this.warn(
          `session log not written: ${formatError(err)} — free some space or make the data directory writable; the conversation goes on, and its turns are written once the log can be`,
        );
      }
      this.failure = formatError(err);
      return false;
    }
    if (this.failure !== null) this.warn(`session log written again: ${this.log.path}`);
    this.failure = null;
    return true;
  }

  /** For commands that read or copy the log: everything said so far is in it, or a one-line error. */
  private flushed(what: string): void {
    if (!this.flush()) throw new AishError(`cannot ${what}: ${this.failure ?? 'the session log cannot be written'}`);
  }

  /** The next turn starts a new log (`:clear`). */
  startNew(): void {
    this.flush(); // the old conversation's held turns go to its own log, if they still can
    this.held = [];
    this.log?.close();
    this.log = null;
  }

  /** `force`: replace what NAME holds even when it is another conversation. */
  save(name: string, force = false, command = ':save'): string {
    if (!this.log && this.held.length === 0) throw new AishError('nothing to save yet — say something first');
    this.flushed(`save "${name}"`);
    return this.log!.saveAs(name, { force, command });
  }

  /** Continue a saved or recent session in a new log that starts with its turns. */
  resume(nameOrId: string, listHint?: string): ResumedSession {
    return this.resumeFrom(resolveSession(this.sessionsDir, nameOrId, listHint), nameOrId);
  }

  /** `aish -c`: the newest session the list shows (one-shot runs are not continued); null when there is none. */
  resumeLatest(): ResumedSession | null {
    const latest = latestListedSession(this.sessionsDir);
    return latest ? this.resumeFrom(latest.path, latest.name) : null;
  }

  /**
   * Take back the last `n` exchanges: a rewind line is appended (nothing is erased). Returns what was
   * taken back, oldest first; none when there was nothing to take back.
   */
  rewind(n: number): RewoundExchanges {
    if (!this.log && this.held.length === 0) return { exchanges: 0, removed: [] };
    this.flushed('rewind');
    if (!this.log) return { exchanges: 0, removed: [] };
    const { removed, exchanges } = rewindTurns(loadSession(this.log.path).turns, n);
    if (exchanges > 0) this.log.appendRewind(exchanges);
    return { exchanges, removed };
  }

  /**
   * `:fork NAME`: save the session so far as NAME, then go on in a new log (resumed from NAME) with
   * the same turns, so the two continue apart.
   */
  fork(name: string, force = false): string {
    const saved = this.save(name, force, ':fork');
    const loaded = loadSession(saved);
    this.log?.close();
    this.log = SessionLog.resume(this.sessionsDir, loaded, this.header());
    return saved;
  }

  close(): void {
    this.flush();
    this.log?.close();
  }

  private resumeFrom(path: string, name: string): ResumedSession {
    const loaded = loadSession(path);
    const messages = turnsToMessages(loaded.turns);
    this.flush();
    this.held = [];
    this.log?.close();
    this.log = SessionLog.resume(this.sessionsDir, loaded, this.header());
    return {
      name,
      messages,
      turns: loaded.turns,
      ...(loaded.digest && { digest: loaded.digest }),
      warnings: lineWarnings(`${name}.jsonl`, loaded.warnings),
    };
  }
}
