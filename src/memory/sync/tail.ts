/**
 * Reading a writer file of the sync repository from a byte on: ours (what a push that landed
 * before a crash left) and everyone else's (what they sent). Its contents are anyone's commit, so
 * only a regular file is read (a committed link must not make us read the user's files), at most
 * READ_MAX bytes a sync (the next one goes on from there), and a line longer than LINE_MAX is
 * counted bad, not parsed.
 */
import { closeSync, constants, lstatSync } from 'node:fs';
import { openRegular, readAt } from '../../util/fs-safe';
import { parseWireLine, type WireRecord } from './wire';

/** Bytes of one writer file read by one sync, and the longest line used (an item is far shorter). */
const READ_MAX = 32 * 2 ** 20;
export const LINE_MAX = 256 * 1024;

export interface Tail {
  /** The file's size. */
  size: number;
  /** Where reading began: `from`, or 0 when the file is shorter than that (rewritten upstream). */
  from: number;
  /** Byte offset after the last whole line read. */
  end: number;
  records: WireRecord[];
  /** Lines that are not records (broken, too long, or a record missing its fields). */
  bad: number;
  /** The `name` the file's header line gives its writer, when asked for and given. */
  name?: string;
}

/** The file's size when it is a regular file; null for anything else (a link, a directory) or nothing. */
function regularSize(path: string): number | null {
  try {
    const st = lstatSync(path);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/** The whole lines of `path` past byte `from`; null when it is not a regular file. */
export function readTail(path: string, from: number, opts: { header?: boolean } = {}): Tail | null {
  const size = regularSize(path);
  if (size === null) return null;
  const start = from <= size ? from : 0;
  let fd: number;
  try {
    fd = openRegular(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null; // replaced by a link, a FIFO or anything else since the lstat
  }
  try {
    const buf = readAt(fd, start, Math.min(size - start, READ_MAX));
    const cut = buf.lastIndexOf(0x0a) + 1;
    // A full read with no line end in it is one line too long: stepped over, so the next read goes on.
    const whole = cut === 0 && buf.length === READ_MAX ? READ_MAX : cut;
    const tail: Tail = { size, from: start, end: start + whole, records: [], bad: cut === 0 && whole > 0 ? 1 : 0 };
    if (opts.header) {
      const head = parseWireLine(readAt(fd, 0, Math.min(size, 4096)).toString('utf8').split('\n')[0] ?? '');
      if ('name' in head && head.name) tail.name = head.name;
    }
    for (const line of buf.subarray(0, cut).toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      if (line.length > LINE_MAX) {
        tail.bad++;
        continue;
      }
      const p = parseWireLine(line);
      if ('record' in p) tail.records.push(p.record);
      else if ('bad' in p) tail.bad++;
    }
    return tail;
  } finally {
    closeSync(fd);
  }
}
