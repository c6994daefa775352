/**
 * The session log writer: `<sessions dir>/<id>.jsonl`, a header line then one line per
 * turn, each synced to disk before `append` returns ("each turn is on disk before the next prompt").
 *
 * One descriptor is kept open for the log's life. The memory store opens by path per write because
 * editors save memory.jsonl by rename; nobody edits or replaces a session log (`saveAs` writes a
 * different file and refuses this one), so a long-lived O_APPEND descriptor cannot end up writing
 * into a replaced file, and it saves an open/close per turn. If the user deletes the file by hand,
 * later turns go to the unlinked inode — acceptable for a log they chose to delete.
 */
import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { AishError, errnoCode, UsageError } from '../util/errors';
import { appendWholeLines, describeFsError, ensurePrivateDir, fsyncDir } from '../util/fs-safe';
import { digestRecord, type SessionDigest } from './digest';
import { orderTurn } from './records';
import { rewindRecord } from './rewind';
import { checkReplace } from './save-guard';
import { MemoryBoundRedactor } from './redact-turn';
import { isAutoSessionId, SESSION_EXT, sessionName, validateSessionName } from './sessions';
import type { LoadedSession, NewTurn, SessionMeta, SessionMetaInput, Turn } from './types';

/** Same-second collisions are rare (two aish started by one pid?); a bound keeps a bug from looping. */
const MAX_SUFFIX = 1000;

export class SessionLog {
  private fd: number | undefined;
  /** Memory-bound tool calls and results are kept redacted. */
  private readonly redactor = new MemoryBoundRedactor();

  private constructor(
    readonly sessionsDir: string,
    private readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  get path(): string {
    return this.file;
  }

  get id(): string {
    return sessionName(this.file);
  }

  /** A new log with a fresh id; the header is on disk (file and directory entry) when this returns. */
  static create(sessionsDir: string, meta: SessionMetaInput, now = new Date()): SessionLog {
    return SessionLog.start(sessionsDir, meta, now, []);
  }

  /**
   * Continue a loaded session in a NEW log: the header names the old one (`resumedFrom`) and its turns
   * are copied, so the new log is complete on its own and the old file is never written to. Its
   * latest digest goes right after the header: the resumed session keeps its title and working state.
   */
  static resume(sessionsDir: string, loaded: LoadedSession, meta: SessionMetaInput, now = new Date()): SessionLog {
    const from = sessionName(loaded.path);
    return SessionLog.start(sessionsDir, { ...meta, resumedFrom: from }, now, loaded.turns, loaded.digest);
  }

  /** Append to an existing log (e.g. one left by a crash); a torn last line is closed off first. */
  static openExisting(path: string): SessionLog {
    const file = resolve(path);
    try {
      return new SessionLog(dirname(file), file, openSync(file, constants.O_RDWR | constants.O_APPEND));
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') throw new AishError(`no session "${sessionName(file)}"`);
      throw new AishError(`cannot open session log ${file}: ${describe(err)}`);
    }
  }

  private static start(sessionsDir: string, meta: SessionMetaInput, now: Date, turns: readonly Turn[], digest?: SessionDigest): SessionLog {
    const dir = resolve(sessionsDir);
    let log: SessionLog | undefined;
    try {
      ensurePrivateDir(dir);
      const { file, fd } = createUnique(dir, autoId(now));
      log = new SessionLog(dir, file, fd);
      fchmodSync(fd, 0o600); // the create mode is masked by the umask; say exactly what we mean
      // id, started and version are ours: they win over anything of the same name in `meta`.
      const header: SessionMeta = { id: log.id, started: now.toISOString(), version: 1 };
      for (const [k, v] of Object.entries(meta)) if (!(k in header)) header[k] = v;
      const redactor = log.redactor;
      const records = [{ meta: header }, ...(digest ? [digestRecord(digest)] : []), ...turns.map((t) => orderTurn(redactor.turn(t)))];
      const lines = records.map((r) => JSON.stringify(r) + '\n');
      log.write(lines.join(''));
    } catch (err) {
      log?.close();
      // A log whose header never reached the disk (a full disk) is not left behind empty: the next
      // turn tries again with a new one.
      if (log) rmSync(log.path, { force: true });
      throw new AishError(`cannot create a session log in ${dir}: ${describe(err)}`);
    }
    fsyncDir(dir); // the new directory entry survives a power cut too
    return log;
  }

  /** Write one turn as one whole line and sync it; returns the turn as written. */
  append(turn: NewTurn): Turn {
    const written = orderTurn(this.redactor.turn({ ...turn, ts: turn.ts ?? new Date().toISOString() }));
    this.write(JSON.stringify(written) + '\n');
    return written;
  }

  /** Record that the last `exchanges` exchanges were taken back (the turns themselves stay). */
  appendRewind(exchanges: number, now = new Date()): void {
    this.write(JSON.stringify(rewindRecord(exchanges, now)) + '\n');
  }

  /**
   * Atomically copy the log as it is now to `<name>.jsonl` (replacing an older save of that name).
   * Names that look like automatic ids are refused: replacing one by rename would cut a running
   * aish off from its own log, and the copy would be listed as unnamed. A name holding another
   * conversation is replaced only with `force` (save-guard.ts); `command` names the retry in the error.
   */
  saveAs(name: string, opts: { force?: boolean; command?: string } = {}): string {
    validateSessionName(name);
    const target = join(this.sessionsDir, name + SESSION_EXT);
    if (resolve(target) === this.file || sameFile(target, this.openFd())) {
      throw new UsageError(`"${name}" is the current session log — save under another name`);
    }
    if (isAutoSessionId(name)) throw new UsageError(`"${name}" looks like an automatic session id — pick another name`);
    if (!opts.force) checkReplace(target, this.file, name, opts.command ?? ':save');
    try {
      writeFileAtomicSync(target, readFileSync(this.file), { mode: 0o600, fsync: true });
    } catch (err) {
      throw new AishError(`cannot save session "${name}": ${describeFsError(err)} — nothing was changed`);
    }
    fsyncDir(this.sessionsDir);
    return target;
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error('session log is closed');
    return this.fd;
  }

  /** One write on the O_APPEND descriptor, then fdatasync; a torn last line is closed off first. */
  private write(text: string): void {
    const fd = this.openFd();
    try {
      appendWholeLines(fd, text);
    } catch (err) {
      // The cause stays readable (describeFsError) for the caller that words it its own way.
      throw Object.assign(new AishError(`cannot write session log ${this.file}: ${describe(err)}`), { reason: describe(err) });
    }
  }
}

/** `YYYYMMDD-HHMMSS-<pid>` in local time: readable in :sessions and sorts by time as a string. */
function autoId(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}`;
  return `${date}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}-${process.pid}`;
}

/** O_EXCL so two logs created in the same second never share a file: a taken name gets `-2`, `-3`… */
function createUnique(dir: string, base: string): { file: string; fd: number } {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const file = join(dir, (n === 1 ? base : `${base}-${n}`) + SESSION_EXT);
    try {
      return { file, fd: openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o600) };
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
  }
  throw new Error(`too many sessions named ${base}`);
}

function sameFile(path: string, fd: number): boolean {
  try {
    const a = statSync(path);
    const b = fstatSync(fd);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/** The cause in words ("no space left on device"), as the other file errors say it. */
function describe(err: unknown): string {
  return describeFsError(err);
}
