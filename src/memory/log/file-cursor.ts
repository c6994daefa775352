/**
 * Where a reader stands in memory.jsonl: the bytes already parsed, and enough about the file to
 * notice that it was replaced or rewritten since (device, inode, size, mtime, ctime, and the last
 * bytes before the offset). ctime matters for an edit that keeps the size and puts the mtime back:
 * any write or utimes sets ctime to now, and nobody can set it back. Other processes only ever append, so normally only the new tail is read; anything else
 * (a hand edit, a compaction, an editor's save-by-rename) means "read it all again".
 */
import { closeSync, constants, statSync } from 'node:fs';
import { AishError, errnoCode } from '../../util/errors';
import { openRegular, readAt } from '../../util/fs-safe';

/** Bytes kept from just before the offset, to recognise an in-place rewrite that kept or grew the size. */
const FINGERPRINT = 64;

export type CursorRead =
  | { kind: 'missing' }
  | { kind: 'rewritten' }
  /** `fresh`: the bytes after the offset (at most `max` of them: then `more` says whether the file goes on), complete lines or not. */
  | { kind: 'fresh'; fresh: Buffer; more: boolean };

/** A cursor written down (the add index keeps one), to pick up where an earlier process stopped. */
export interface CursorState {
  offset: number;
  lines: number;
  ino: number;
  dev: number;
  size: number;
  mtime: number;
  ctime: number;
  /** Base64. */
  fingerprint: string;
}

export class FileCursor {
  /** Bytes parsed and committed: always just after a newline. */
  offset = 0;
  /** Lines before `offset` (for line numbers in reports). */
  lines = 0;
  private ino = -1;
  private dev = -1;
  private lastSize = 0;
  private lastMtime = 0;
  private lastCtime = 0;
  private fingerprint = Buffer.alloc(0);
  /** The last read, for commit(): its start in the file and its bytes. */
  private readStart = 0;
  private readBuf: Buffer = Buffer.alloc(0);

  get seenFile(): boolean {
    return this.ino !== -1;
  }

  reset(): void {
    this.offset = 0;
    this.lines = 0;
    this.ino = -1;
    this.dev = -1;
    this.lastSize = 0;
    this.lastMtime = 0;
    this.lastCtime = 0;
    this.fingerprint = Buffer.alloc(0);
  }

  save(): CursorState {
    const { offset, lines, ino, dev, lastSize: size, lastMtime: mtime, lastCtime: ctime } = this;
    return { offset, lines, ino, dev, size, mtime, ctime, fingerprint: this.fingerprint.toString('base64') };
  }

  static restore(s: CursorState): FileCursor {
    const c = new FileCursor();
    ({ offset: c.offset, lines: c.lines, ino: c.ino, dev: c.dev, size: c.lastSize, mtime: c.lastMtime, ctime: c.lastCtime } = s);
    c.fingerprint = Buffer.from(s.fingerprint, 'base64');
    return c;
  }

  /** What changed since the last commit. After 'rewritten' the caller resets and reads again. */
  read(path: string, max = Infinity): CursorRead {
    let st;
    try {
      st = statSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw err;
    }
    if (st.isDirectory()) throw new AishError(`${path} is a directory — point memory.path at a file`);
    // A FIFO would block the read for ever, a device never end: never opened.
    if (!st.isFile()) throw new AishError(`${path} is not a regular file — point memory.path at a file`);
    // Same size: a change of mtime or ctime is a rewrite in place (an append would have grown it).
    const replaced =
      st.ino !== this.ino ||
      st.dev !== this.dev ||
      st.size < this.offset ||
      (st.size === this.lastSize && (st.mtimeMs !== this.lastMtime || st.ctimeMs !== this.lastCtime));
    if (replaced && this.seenFile) return { kind: 'rewritten' };

    const start = Math.max(0, this.offset - this.fingerprint.length);
    const buf = readRange(path, start, Math.min(st.size - start, this.offset - start + max));
    if (!buf.subarray(0, this.offset - start).equals(this.fingerprint)) return { kind: 'rewritten' }; // rewritten in place
    this.ino = st.ino;
    this.dev = st.dev;
    this.lastSize = Math.max(st.size, start + buf.length);
    this.lastMtime = st.mtimeMs;
    this.lastCtime = st.ctimeMs;
    this.readStart = start;
    this.readBuf = buf;
    return { kind: 'fresh', fresh: buf.subarray(this.offset - start), more: start + buf.length < st.size };
  }

  /** The first `bytes` of the last read's fresh part, holding `lines` newlines, are parsed for good. */
  commit(bytes: number, lines: number): void {
    this.offset += bytes;
    this.lines += lines;
    const end = this.offset - this.readStart;
    this.fingerprint = Buffer.from(this.readBuf.subarray(Math.max(0, end - FINGERPRINT), end));
  }

  /** Let go of the last read's bytes (the whole file after a full read): only the fingerprint is needed after. */
  release(): void {
    this.readBuf = Buffer.alloc(0);
  }
}

function readRange(path: string, pos: number, len: number): Buffer {
  let fd: number;
  try {
    fd = openRegular(path, constants.O_RDONLY); // a FIFO put in its place since the stat is refused, not waited on
  } catch (err) {
    if (errnoCode(err) === 'ENOTREG') throw new AishError(`${path} is not a regular file — point memory.path at a file`);
    throw err;
  }
  try {
    return readAt(fd, pos, len);
  } finally {
    closeSync(fd);
  }
}
