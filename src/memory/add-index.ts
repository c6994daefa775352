/**
 * `<memory.jsonl>.add-index`: what `aish memory add` needs to know about the file — the highest id
 * and whether an active item may already say the same — without reading it all. A cache, used only
 * under the memory lock: a header (a FileCursor written down, the highest id, the count of
 * unreadable lines) and a hash set of the keys (sameItemKey) of every item added since the last
 * full read (key-table.ts).
 *
 * Kept honest the way the in-process store keeps its state: the cursor notices a replaced or
 * rewritten file (inode, size, mtime, the bytes before its offset); only records appended since
 * are read, and only when they are plain — whole lines, ids above the highest so far, nothing
 * unreadable. Anything else (a hand edit, a compaction, an odd line) means a full read, as before.
 * The set never forgets a key (a forgotten item's key stays): a hit means "check with a full
 * read", a miss means no active item says the same.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, rmSync } from 'node:fs';
import { FileCursor, type CursorState } from './file-cursor';
import { ingestFile } from './ingest';
import {
  buildTable,
  capacityFor,
  keyHash,
  probe,
  readFull,
  TABLE_START,
  tableHashes,
  writeFull,
  writeSlot,
  type KeyHash,
} from './key-table';
import { parseInto, type EntrySink } from './parse';
import { sameItemKey } from './records';
import { MemoryState } from './state';
import { unreadableCount } from './types';

const VERSION = 1;

interface Header {
  v: number;
  file: CursorState;
  maxId: number;
  unreadable: number;
  cap: number;
  count: number;
}

export const addIndexPath = (memoryPath: string): string => `${memoryPath}.add-index`;

export class AddIndex {
  private constructor(
    private readonly fd: number,
    private h: Header | null,
  ) {}

  /** Open (or create) the index of `memoryPath`; an unreadable header just means a rebuild. */
  static open(memoryPath: string): AddIndex {
    const fd = openSync(addIndexPath(memoryPath), constants.O_RDWR | constants.O_CREAT, 0o600);
    return new AddIndex(fd, readHeader(fd));
  }

  get maxId(): number {
    return this.h?.maxId ?? 0;
  }

  get unreadable(): number {
    return this.h?.unreadable ?? 0;
  }

  /** Bring the index up to date with the file. false: the file is missing (nothing to index). */
  sync(memoryPath: string): boolean {
    if (this.h) {
      const cursor = FileCursor.restore(this.h.file);
      const r = cursor.read(memoryPath);
      if (r.kind === 'missing') return false;
      if (r.kind === 'fresh' && this.applyTail(r.fresh, cursor)) {
        this.h.file = cursor.save();
        return true;
      }
    }
    return this.rebuild(memoryPath);
  }

  /** Might an active item have this key? (true may be a false alarm: check with a full read.) */
  has(key: string): boolean {
    return this.h !== null && probe(this.fd, this.h.cap, keyHash(key)).found;
  }

  /** Write the header and close. */
  close(): void {
    try {
      if (this.h) writeHeader(this.fd, this.h);
    } finally {
      closeSync(this.fd);
    }
  }

  /** Records appended since the cursor, if all plain: their ids and keys taken in. false: read it all. */
  private applyTail(fresh: Buffer, cursor: FileCursor): boolean {
    const h = this.h!;
    if (fresh.length === 0) return true;
    if (fresh[fresh.length - 1] !== 0x0a) return false; // an unfinished line: the full reader's business
    const text = fresh.toString('utf8');
    if (text.includes('\ufffd')) return false; // maybe invalid UTF-8, which is reported
    let maxId = h.maxId;
    let odd = false;
    let lines = 0;
    const keys: string[] = [];
    const take = (id: number, target?: number): void => {
      if (id <= maxId) odd = true; // out of order or reused: the full reader decides what counts
      maxId = Math.max(maxId, id, target ?? 0);
    };
    const sink: EntrySink = {
      item: (item) => {
        take(item.id);
        keys.push(sameItemKey(item.scope, item.content));
      },
      forget: (t) => take(t.id, t.target),
      pin: (p) => take(p.id, p.target),
      header: (id) => (maxId = Math.max(maxId, id ?? 0)),
      bad: () => (odd = true),
    };
    if (parseInto(text, cursor.lines + 1, true, sink, true) !== null || odd) return false;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    for (const k of keys) this.insert(keyHash(k));
    h.maxId = maxId;
    cursor.commit(fresh.length, lines);
    return true;
  }

  private insert(hash: KeyHash): void {
    const h = this.h!;
    const at = probe(this.fd, h.cap, hash);
    if (at.found) return;
    if ((h.count + 1) * 2 > h.cap) {
      const old = Buffer.allocUnsafe(h.cap * 8);
      readFull(this.fd, old, old.length, TABLE_START);
      this.writeTable(
        (function* () {
          yield* tableHashes(old);
          yield hash;
        })(),
        h.count + 1,
      );
      return;
    }
    writeSlot(this.fd, at.slot, hash);
    h.count++;
  }

  /** A full read, as the store does it; the index starts again from the active items. */
  private rebuild(memoryPath: string): boolean {
    let state = new MemoryState();
    const cursor = new FileCursor();
    for (let r = ingestFile(state, cursor, memoryPath); r !== 'done'; r = ingestFile(state, cursor, memoryPath)) {
      if (r === 'missing') return false;
      state = new MemoryState();
      cursor.reset();
    }
    const active = state.active();
    const file = cursor.save();
    this.h = null;
    this.writeTable(
      (function* () {
        for (const it of active) yield keyHash(sameItemKey(it.scope, it.content));
      })(),
      active.length,
    );
    this.h = { ...this.h!, v: VERSION, file, maxId: state.maxId, unreadable: unreadableCount(state.skipped) };
    return true;
  }

  /** Replace the table; the header is blanked first, so a crash half-way leaves an index that rebuilds. */
  private writeTable(hashes: Iterable<KeyHash>, expected: number): void {
    const cap = capacityFor(expected);
    writeFull(this.fd, Buffer.alloc(TABLE_START), 0);
    const { buf, count } = buildTable(cap, hashes);
    ftruncateSync(this.fd, TABLE_START + buf.length);
    writeFull(this.fd, buf, TABLE_START);
    this.h = { ...(this.h ?? { v: VERSION, file: new FileCursor().save(), maxId: 0, unreadable: 0 }), cap, count };
  }
}

/** Remove the index (after trouble): the next add rebuilds it. */
export function dropAddIndex(memoryPath: string): void {
  rmSync(addIndexPath(memoryPath), { force: true });
}

function checksum(text: string): string {
  const [a, b] = keyHash(text);
  return `${a.toString(16)}.${b.toString(16)}`;
}

function writeHeader(fd: number, h: Header): void {
  const json = JSON.stringify(h);
  const buf = Buffer.alloc(TABLE_START);
  buf.write(`${json}\n${checksum(json)}\n`, 'utf8');
  writeFull(fd, buf, 0);
}

function readHeader(fd: number): Header | null {
  if (fstatSync(fd).size < TABLE_START) return null;
  const buf = Buffer.alloc(TABLE_START);
  if (readSync(fd, buf, 0, TABLE_START, 0) !== TABLE_START) return null;
  const end = buf.indexOf(0);
  const [json, sum] = buf.toString('utf8', 0, end === -1 ? TABLE_START : end).split('\n');
  if (!json || sum !== checksum(json)) return null;
  try {
    const h = JSON.parse(json) as Header;
    if (h.v !== VERSION || fstatSync(fd).size < TABLE_START + h.cap * 8) return null;
    return h;
  } catch {
    return null;
  }
}
