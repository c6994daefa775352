/**
 * A small JSON-lines file beside memory.jsonl (inbox.jsonl, team-review.jsonl). Written like
 * memory.jsonl — under its own `<file>.lock`, whole lines in one fsynced append, 0600 in a 0700
 * directory — and read whole, again only when its size, time or inode changed: these files stay
 * small, and a status line asks about them on every frame.
 */
import { parseJsonLine } from '../util/line-warnings';
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { AishError, errnoCode } from '../util/errors';
import { ensurePrivateDir } from '../util/fs-safe';
import { appendRecords } from './log/append';
import { cannotRead } from './log/file-errors';
import { assertIdsFit } from './log/records';
import { DEFAULT_LOCK_TIMING, withLock, type LockTiming } from './log/lock';

export interface SideFileOptions {
  lock?: Partial<LockTiming>;
  /** One-line notes for the user (a hand-made file made private, a lock taken over). */
  notice?: (text: string) => void;
}

/** What a locked step appends, and what it returns. */
export interface Planned<T> {
  records: object[];
  result: T;
}

/**
 * The JSON objects of a side file's lines, in order. A torn or hand-broken line, and a line that
 * holds no object (`null`, a number, a list), is passed over: the other lines still count.
 */
export function jsonObjectLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    // A torn or hand-broken line decides nothing.
    const p = parseJsonLine(line);
    const v = p.ok ? p.value : null;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v as Record<string, unknown>);
  }
  return out;
}

export class SideFile<P> {
  private value: P;
  private stamp: string | null = null;
  private readonly timing: LockTiming;
  private readonly notice: (text: string) => void;

  constructor(
    readonly path: string,
    /** The file's text made into what its owner asks about (broken lines skipped there, never fatal). */
    private readonly parse: (text: string) => P,
    opts: SideFileOptions = {},
  ) {
    this.value = parse('');
    this.timing = { ...DEFAULT_LOCK_TIMING, ...opts.lock };
    this.notice = opts.notice ?? (() => {});
  }

  /** As the file is now (stat only, unless it changed). */
  current(): P {
    this.refresh();
    return this.value;
  }

  /** As at the last read, without a stat (after `version()` said nothing changed). */
  lastRead(): P {
    return this.value;
  }

  /** Changes when the file does (for callers' caches). */
  version(): string {
    this.refresh();
    return this.stamp ?? '';
  }

  /**
   * Under the lock, with the file read again: `plan` sees it as it is and says what to append; its
   * records are written as whole lines in one fsynced append. Nothing to append: nothing written.
   */
  locked<T>(plan: (now: P) => Promise<Planned<T>> | Planned<T>): Promise<T> {
    ensurePrivateDir(dirname(this.path));
    return withLock(
      this.path,
      async (guard) => {
        this.refresh(true);
        const { records, result } = await plan(this.value);
        if (records.length === 0) return result;
        assertIdsFit(this.path, records);
        guard.assertHeld();
        appendRecords(this.path, records.map((r) => JSON.stringify(r)).join('\n') + '\n', '', this.notice);
        this.refresh(true);
        return result;
      },
      this.timing,
      this.notice,
    );
  }

  /** Re-read when the file changed since the last read (or always, under the lock). */
  private refresh(force = false): void {
    let st;
    try {
      st = statSync(this.path);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw cannotRead(this.path, err);
    }
    if (st && !st.isFile()) throw new AishError(`${this.path} is not a regular file — move it away; aish makes a new one`);
    const stamp = st ? `${st.size}:${st.mtimeMs}:${st.ino}` : '';
    if (!force && stamp === this.stamp) return;
    let text = '';
    try {
      text = st ? readFileSync(this.path, 'utf8') : '';
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw cannotRead(this.path, err);
    }
    this.value = this.parse(text);
    this.stamp = stamp;
  }
}
