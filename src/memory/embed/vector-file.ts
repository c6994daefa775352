/**
 * `memory.jsonl.vectors`: the embeddings of memory items, a cache beside memory.jsonl (safe to
 * delete). One model per file: a 16-byte preamble (magic, header length), a JSON header
 * `{v, model, dim}`, then fixed-size records `[16-byte key][dim × f32 LE]`, vectors stored
 * normalized. Fixed-size records appended with fsync make embedding resumable at no cost: a batch
 * lands whole or is a torn tail, which is ignored on load and cut off before the next append; a
 * record whose vector is not of unit length (damage) is dropped. A file of another model or
 * dimension is never appended to: it is replaced, atomically, so vectors of two models never mix.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { replaceFileSync } from '../../util/atomic-write';
import { writeAll } from '../../util/fs-safe';

export const vectorsPath = (memoryPath: string): string => `${memoryPath}.vectors`;

const MAGIC = 'AISHVEC1';
const PREAMBLE = 16;
const VERSION = 1;
const KEY_BYTES = 16;
/** Records read and checked at a time while loading (each read yields), so a large file never holds up a turn for long. */
const LOAD_SLICE = 1024;

export interface VectorRecord {
  key: Buffer;
  vec: Float32Array;
}

/** Unit length, in place; false for a zero or non-finite vector. */
export function normalize(v: Float32Array): boolean {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (!(s > 0) || !Number.isFinite(s)) return false;
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return true;
}

function headerBytes(model: string, dim: number): Buffer {
  let text = JSON.stringify({ v: VERSION, model, dim });
  // Records start on a 4-byte boundary.
  while ((PREAMBLE + Buffer.byteLength(text)) % 4) text += ' ';
  const head = Buffer.alloc(PREAMBLE + Buffer.byteLength(text));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(Buffer.byteLength(text), 8);
  head.write(text, PREAMBLE, 'utf8');
  return head;
}

/** The header at the start of `bytes` when it is one of ours for `model`: its dimension and length. */
function readHeader(bytes: Buffer, model: string): { dim: number; len: number } | null {
  if (bytes.length < PREAMBLE || bytes.toString('latin1', 0, 8) !== MAGIC) return null;
  const len = bytes.readUInt32LE(8);
  if (PREAMBLE + len > bytes.length) return null;
  try {
    const h = JSON.parse(bytes.toString('utf8', PREAMBLE, PREAMBLE + len)) as { v?: unknown; model?: unknown; dim?: unknown };
    if (h.v !== VERSION || h.model !== model || !Number.isSafeInteger(h.dim) || (h.dim as number) < 1) return null;
    return { dim: h.dim as number, len: PREAMBLE + len };
  } catch {
    return null;
  }
}

/** The vectors of one model, in memory as one matrix (row = a key's vector), and on disk. */
export class VectorFile {
  dim = 0;
  rows = 0;
  data = new Float32Array(0);
  private readonly keys = new Map<string, number>();
  private readonly keyOf: string[] = [];

  constructor(
    readonly path: string,
    readonly model: string,
  ) {}

  /** The file's vectors of this model (none when it is missing, damaged, or another model's). Read in slices, yielding between them. */
  async load(): Promise<void> {
    let fh: FileHandle;
    try {
      fh = await open(this.path, 'r');
    } catch {
      return;
    }
    try {
      const size = (await fh.stat()).size;
      const head = Buffer.alloc(Math.min(size, 64 * 1024));
      await fh.read(head, 0, head.length, 0);
      const h = readHeader(head, this.model);
      if (!h) return;
      this.dim = h.dim;
      const rec = KEY_BYTES + h.dim * 4;
      const count = Math.floor((size - h.len) / rec);
      this.grow(count);
      // An ArrayBuffer of its own, so each vector is an aligned view into it (no copy per record).
      const chunk = Buffer.from(new ArrayBuffer(LOAD_SLICE * rec));
      for (let r = 0; r < count; r += LOAD_SLICE) {
        const n = Math.min(LOAD_SLICE, count - r);
        const { bytesRead } = await fh.read(chunk, 0, n * rec, h.len + r * rec);
        for (let k = 0; k < Math.floor(bytesRead / rec); k++) {
          const vec = new Float32Array(chunk.buffer, k * rec + KEY_BYTES, h.dim);
          let s = 0;
          for (let i = 0; i < vec.length; i++) s += vec[i]! * vec[i]!;
          if (!(Math.abs(s - 1) < 1e-3)) continue; // damaged: embedded again
          this.put(chunk.toString('hex', k * rec, k * rec + KEY_BYTES), vec);
        }
      }
    } finally {
      await fh.close();
    }
  }

  row(key: string): number | undefined {
    return this.keys.get(key);
  }

  get size(): number {
    return this.keys.size;
  }

  /**
   * Add normalized vectors of `dim` (another dimension than the file's starts a new file: the model
   * behind the name changed). On disk first, so what is in memory is what a restart finds.
   */
  add(records: readonly VectorRecord[]): void {
    if (records.length === 0) return;
    const dim = records[0]!.vec.length;
    if (this.dim !== dim) this.reset(dim);
    const rec = KEY_BYTES + dim * 4;
    const buf = Buffer.alloc(records.length * rec);
    records.forEach((r, i) => {
      r.key.copy(buf, i * rec, 0, KEY_BYTES);
      Buffer.from(r.vec.buffer, r.vec.byteOffset, dim * 4).copy(buf, i * rec + KEY_BYTES);
    });
    if (!this.append(buf)) this.rewrite(buf);
    this.grow(this.rows + records.length);
    for (const r of records) this.put(r.key.toString('hex'), r.vec);
  }

  /** Keep only `live` keys, on disk (atomically) and in memory: forgotten and edited items' vectors go. */
  compact(live: ReadonlySet<string>): void {
    const kept: VectorRecord[] = [];
    for (const [key, row] of this.keys) if (live.has(key)) kept.push({ key: Buffer.from(key, 'hex'), vec: this.vector(row) });
    this.reset(this.dim, false);
    this.grow(kept.length);
    for (const r of kept) this.put(r.key.toString('hex'), r.vec);
    this.rewrite(Buffer.alloc(0));
  }

  vector(row: number): Float32Array {
    return this.data.slice(row * this.dim, (row + 1) * this.dim);
  }

  /** The key of a row (hex). */
  keyAt(row: number): string {
    return this.keyOf[row]!;
  }

  private reset(dim: number, write = true): void {
    this.dim = dim;
    this.rows = 0;
    this.data = new Float32Array(0);
    this.keys.clear();
    this.keyOf.length = 0;
    if (write) this.rewrite(Buffer.alloc(0));
  }

  private put(key: string, vec: Float32Array): void {
    const known = this.keys.get(key);
    const row = known ?? this.rows++;
    this.data.set(vec, row * this.dim);
    if (known === undefined) {
      this.keys.set(key, row);
      this.keyOf[row] = key;
    }
  }

  private grow(rows: number): void {
    if (rows * this.dim <= this.data.length) return;
    const next = new Float32Array(Math.max(rows, Math.ceil(this.rows * 1.5)) * this.dim);
    next.set(this.data.subarray(0, this.rows * this.dim));
    this.data = next;
  }

  /** Append whole records after the last whole one, when the file is ours (same header); false when it is not. */
  private append(buf: Buffer): boolean {
    let fd: number;
    try {
      fd = openSync(this.path, 'r+');
    } catch {
      return false;
    }
    try {
      const head = headerBytes(this.model, this.dim);
      const got = Buffer.alloc(head.length);
      if (readSync(fd, got, 0, head.length, 0) !== head.length || !got.equals(head)) return false;
      const rec = KEY_BYTES + this.dim * 4;
      const size = fstatSync(fd).size;
      const end = head.length + Math.floor((size - head.length) / rec) * rec;
      if (end !== size) ftruncateSync(fd, end); // a torn record of a crash: cut before appending
      writeAll(fd, buf, end);
      fsyncSync(fd);
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /** A new file: header, what is in memory, then `buf`; replaced atomically. */
  private rewrite(buf: Buffer): void {
    const rec = KEY_BYTES + this.dim * 4;
    const mine = Buffer.alloc(this.rows * rec);
    for (let r = 0; r < this.rows; r++) {
      Buffer.from(this.keyOf[r]!, 'hex').copy(mine, r * rec);
      Buffer.from(this.data.buffer, r * this.dim * 4, this.dim * 4).copy(mine, r * rec + KEY_BYTES);
    }
    replaceFileSync(this.path, [headerBytes(this.model, this.dim), mine, buf], { mode: 0o600 });
  }
}
