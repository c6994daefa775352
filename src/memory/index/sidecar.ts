/**
 * Reading and writing `memory.jsonl.index`. Reads are by offset (pread), so a start-up touches the
 * header and the few ranges a selection or a query needs, never the whole file. Writes are atomic
 * (util/atomic-write.ts): a temp file of this process, every byte checked written, fsync, rename, 0600 — a short write is
 * never taken for a whole index, and two aish writing at once each rename a complete one.
 */
import { closeSync, constants, copyFileSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFileSync, sweepDeadTemps, tempName } from '../../util/atomic-write';
import { fsyncDir, openRegular, readAt, writeAll } from '../../util/fs-safe';
import { chunksOf, type BuiltIndex } from './build';
import { MAGIC, PREAMBLE, validHeader, type IndexHeader, type SectionName } from './layout';

export const indexPath = (memoryPath: string): string => `${memoryPath}.index`;

/** An open index file, or one just built and still in memory. */
export class Sidecar {
  private constructor(
    readonly header: IndexHeader,
    private readonly fd: number | null,
    private readonly bytes: Buffer | null,
  ) {}

  /** The index beside `memoryPath` when there is a usable one (right magic, version and length); else null. */
  static open(memoryPath: string): Sidecar | null {
    let fd: number;
    try {
      // A FIFO in the index's place is refused without waiting for a writer: no index, built again.
      fd = openRegular(indexPath(memoryPath), constants.O_RDONLY);
    } catch {
      return null;
    }
    try {
      const size = fstatSync(fd).size;
      const h: unknown = JSON.parse(headerText(fd, size).toString('utf8'));
      if (!validHeader(h, size)) throw new Error();
      return new Sidecar(h, fd, null);
    } catch {
      closeSync(fd);
      return null; // not an index we can trust: it is built again
    }
  }

  /** An index just built (its bytes as written, or as they would have been). */
  static fromBytes(header: IndexHeader, bytes: Buffer): Sidecar {
    return new Sidecar(header, null, bytes);
  }

  /** `count` elements of `size` bytes from element `index` of a section, as a fresh aligned buffer. */
  range(name: SectionName, index: number, count: number, size: number): ArrayBuffer {
    const [start, bytes] = this.header.sections[name];
    const from = index * size;
    const len = count * size;
    if (index < 0 || count < 0 || from + len > bytes) throw new CorruptIndex(name);
    const ab = new ArrayBuffer(len);
    const view = new Uint8Array(ab);
    if (this.bytes) view.set(this.bytes.subarray(start + from, start + from + len));
    else {
      let got = 0;
      while (got < len) {
        const n = readSync(this.fd!, view, got, len - got, start + from + got);
        if (n === 0) throw new CorruptIndex(name);
        got += n;
      }
    }
    return ab;
  }

  u32(name: SectionName, index: number, count: number): Uint32Array {
    return new Uint32Array(this.range(name, index, count, 4));
  }

  f64(name: SectionName, index: number, count: number): Float64Array {
    return new Float64Array(this.range(name, index, count, 8));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
  }
}

/**
 * The header's bytes of the index open at `fd` (`size` bytes long), after the preamble (magic,
 * length); throws when they are not there. A length past the end is refused before anything is allocated.
 */
function headerText(fd: number, size: number): Buffer {
  const pre = readAt(fd, 0, PREAMBLE);
  if (pre.length !== PREAMBLE || pre.toString('latin1', 0, 8) !== MAGIC) throw new Error('not an index');
  const len = pre.readUInt32LE(8);
  if (PREAMBLE + len > size) throw new Error('not an index');
  const text = readAt(fd, PREAMBLE, len);
  if (text.length !== len) throw new Error('short header');
  return text;
}

/** What an index said does not hold together: it is dropped and built again. */
export class CorruptIndex extends Error {
  constructor(what: string) {
    super(`memory index damaged (${what})`);
  }
}

/** Write the index atomically. Never throws: an index that cannot be written only costs the next start a build. */
export function writeSidecar(memoryPath: string, built: BuiltIndex): boolean {
  const target = indexPath(memoryPath);
  try {
    sweepDeadTemps(target);
    replaceFileSync(target, chunksOf(built), { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The index `h` heads, written again without racyCrc (reader.ts: its bytes were checked once the
 * racy window had passed): a copy with the new header (padded to the old one's length, so no offset
 * moves) renamed over it, as atomic as a build's write. Left alone when the file there is no longer
 * that index (another aish wrote a new one). Never throws: not settling costs a later start a checksum.
 */
export function settleSidecar(memoryPath: string, h: IndexHeader): void {
  const target = indexPath(memoryPath);
  const tmp = tempName(target);
  let fd: number | null = null;
  try {
    copyFileSync(target, tmp);
    fd = openSync(tmp, 'r+');
    const text = headerText(fd, fstatSync(fd).size);
    if (JSON.stringify(JSON.parse(text.toString('utf8'))) !== JSON.stringify(h)) throw new Error('another index');
    const { racyCrc: _checked, ...settled } = h;
    const next = Buffer.from(JSON.stringify(settled).padEnd(text.length, ' '), 'utf8');
    if (next.length !== text.length) throw new Error('header length');
    writeAll(fd, next, PREAMBLE);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, target);
    fsyncDir(dirname(target));
  } catch {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
  }
}
