/**
 * An open-addressing hash set of 64-bit key hashes kept in a file after a fixed-size header, so a
 * lookup or an insert reads and writes a few slots (pread/pwrite) instead of loading the set:
 * the cost of `aish memory add` stays the same at 1k and 1M items. Linear probing, load ≤ 1/2,
 * an all-zero slot is empty (hashes are never all zero).
 */
import { readSync, writeSync } from 'node:fs';

export const TABLE_START = 4096;
const SLOT = 8;
/** Slots read per probe step: one 4 KiB page. */
const BLOCK = 512;

export type KeyHash = readonly [number, number];

/** Two 32-bit halves of a fast non-cryptographic hash (cyrb53's mixing); a collision only costs a full check. */
export function keyHash(key: string): KeyHash {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0 || 1];
}

/** A power of two with room for `count` keys at load ≤ 1/4, so inserts go a while before a resize. */
export function capacityFor(count: number): number {
  let cap = 1024;
  while (cap < count * 4) cap *= 2;
  return cap;
}

/** A table built in memory (rebuild, resize), written out whole. */
export function buildTable(cap: number, hashes: Iterable<KeyHash>): { buf: Buffer; count: number } {
  const buf = Buffer.alloc(cap * SLOT);
  let count = 0;
  for (const [a, b] of hashes) {
    let slot = a & (cap - 1);
    for (;;) {
      const x = buf.readUInt32LE(slot * SLOT);
      const y = buf.readUInt32LE(slot * SLOT + 4);
      if (x === 0 && y === 0) {
        buf.writeUInt32LE(a, slot * SLOT);
        buf.writeUInt32LE(b, slot * SLOT + 4);
        count++;
        break;
      }
      if (x === a && y === b) break;
      slot = (slot + 1) & (cap - 1);
    }
  }
  return { buf, count };
}

/** Every hash in a table buffer (for a resize). */
export function* tableHashes(buf: Buffer): Generator<KeyHash> {
  for (let off = 0; off + SLOT <= buf.length; off += SLOT) {
    const a = buf.readUInt32LE(off);
    const b = buf.readUInt32LE(off + 4);
    if (a !== 0 || b !== 0) yield [a, b];
  }
}

/** The slot holding `h`, or the empty slot where it would go. */
export function probe(fd: number, cap: number, [a, b]: KeyHash): { found: boolean; slot: number } {
  const buf = Buffer.allocUnsafe(BLOCK * SLOT);
  let slot = a & (cap - 1);
  for (let seen = 0; seen < cap;) {
    const n = Math.min(BLOCK, cap - slot);
    readFull(fd, buf, n * SLOT, TABLE_START + slot * SLOT);
    for (let k = 0; k < n; k++) {
      const x = buf.readUInt32LE(k * SLOT);
      const y = buf.readUInt32LE(k * SLOT + 4);
      if (x === 0 && y === 0) return { found: false, slot: slot + k };
      if (x === a && y === b) return { found: true, slot: slot + k };
    }
    seen += n;
    slot = (slot + n) & (cap - 1);
  }
  throw new Error('add index: hash table full');
}

export function writeSlot(fd: number, slot: number, [a, b]: KeyHash): void {
  const buf = Buffer.allocUnsafe(SLOT);
  buf.writeUInt32LE(a, 0);
  buf.writeUInt32LE(b, 4);
  writeFull(fd, buf, TABLE_START + slot * SLOT);
}

export function readFull(fd: number, buf: Buffer, len: number, pos: number): void {
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) throw new Error('add index: file is shorter than its header says');
    got += n;
  }
}

export function writeFull(fd: number, buf: Buffer, pos: number): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, pos + off);
}
