/**
 * Reading the file `aish memory import` is given, bounded: a regular file only (a FIFO would wait
 * for a writer for ever, /dev/zero never ends, a directory or socket is not a file), refused before
 * any byte is read; at most IMPORT_MAX_BYTES in all, and lines longer than IMPORT_MAX_LINE_BYTES
 * are left out and named (an item is a note; a megabyte of one is a paste gone wrong, and every
 * item is scanned for secrets).
 */
import { closeSync, constants, fstatSync, statSync, type Stats } from 'node:fs';
import { AishError, errnoCode, UsageError } from '../../util/errors';
import { describeFsError, openRegular, readAt } from '../../util/fs-safe';

export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;
export const IMPORT_MAX_LINE_BYTES = 64 * 1024;

const LIMIT = `${IMPORT_MAX_BYTES / 1024 / 1024} MiB`;

function kindOf(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function refuse(file: string, st: Stats): void {
  const kind = kindOf(st);
  if (kind) throw new UsageError(`cannot import ${file}: it is ${kind}, not a file — give an export or a memory.jsonl`);
  if (st.size > IMPORT_MAX_BYTES)
    throw new UsageError(`cannot import ${file}: it is ${st.size} bytes, over the ${LIMIT} an import may hold — split it`);
}

export interface ImportText {
  text: string;
  /** Lines left out, as `LINE: reason` (their place kept empty, so later line numbers stay true). */
  problems: string[];
}

/** The file's text, checked as above. Errors are one line: UsageError for what is not a file to import, AishError when it cannot be read. */
export function readImportFile(file: string): ImportText {
  let fd: number;
  try {
    refuse(file, statSync(file));
    // If a FIFO was put in its place since the stat, the open does not wait for a writer: refused as above.
    fd = openRegular(file, constants.O_RDONLY);
  } catch (err) {
    if (err instanceof AishError) throw err;
    if (errnoCode(err) === 'ENOTREG') refuse(file, statSync(file));
    throw new AishError(`cannot read ${file}: ${describeFsError(err)}`);
  }
  let buf: Buffer;
  try {
    const st = fstatSync(fd);
    refuse(file, st);
    // One byte more than allowed: a file that grew since the stat is refused, not read on.
    buf = readAt(fd, 0, IMPORT_MAX_BYTES + 1);
  } catch (err) {
    if (err instanceof AishError) throw err;
    throw new AishError(`cannot read ${file}: ${describeFsError(err)}`);
  } finally {
    closeSync(fd);
  }
  if (buf.length > IMPORT_MAX_BYTES) throw new UsageError(`cannot import ${file}: it grew past the ${LIMIT} an import may hold — split it`);
  return splitLong(buf);
}

/** Lines over the limit replaced by empty ones, each named. */
function splitLong(buf: Buffer): ImportText {
  const problems: string[] = [];
  const long: Array<[number, number]> = [];
  for (let start = 0, line = 1; start <= buf.length; line++) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    if (end - start > IMPORT_MAX_LINE_BYTES) {
      problems.push(`${line}: ${end - start} bytes, over the ${IMPORT_MAX_LINE_BYTES / 1024} KiB one line may hold — not imported`);
      long.push([start, end]);
    }
    start = end + 1;
  }
  if (long.length === 0) return { text: buf.toString('utf8'), problems };
  const kept: string[] = [];
  let from = 0;
  for (const [start, end] of long) {
    kept.push(buf.toString('utf8', from, start));
    from = end;
  }
  kept.push(buf.toString('utf8', from));
  return { text: kept.join(''), problems };
}
