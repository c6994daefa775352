/**
 * The layout of `memory.jsonl.index`, the one cache derived from memory.jsonl (docs/memory.md,
 * "The index"). A magic line, the length of a JSON header, the header, then binary sections, each
 * at an 8-byte boundary, little-endian. A header of another version, a file shorter or longer than
 * the header says, or one that does not parse is not used: the index is built again. Also the
 * checksum of the bytes an index covers (lineStarts), which the build and a racy index's check share.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { groupsKey } from '../../util/word-groups';
import type { CursorState } from '../log/file-cursor';

/** Bumped whenever the layout or what goes into it changes: an index of another version is rebuilt. */
export const FORMAT_VERSION = 11;
export const MAGIC = 'AISHIDX\n';
/** Magic (8), header length (u32), reserved (u32). */
export const PREAMBLE = 16;

/**
 * Sections. Per document (an active item; slot = its rank by id): `ids`, `times` (f64), `lens`
 * (terms, i32), `offs` (byte offset of its record in memory.jsonl, f64), `spans` (bytes, u32),
 * `lines` ([background] line length and scope number, u32 pairs: the plan's checks need no read).
 * `order`: [background] candidates by segment (background-order.ts: own pinned, received pinned, own
 * pref, received pref, rest; pinned most recently pinned first, the others newest first), one
 * ORDER_ENTRY per document; `omin`: per block of ORDER_BLOCK entries of it, the shortest line (u32),
 * so a walk that has no room left for any of them skips the block unread. `thash`: open-addressing table of term hashes → term number + 1;
 * `tinfo`: per term [posting start, df, string offset, string bytes] (u32); `tstr`: the terms;
 * `pslot` (u32) / `pfreq` (u16): postings. `khash`: [key hash, slot + 1] pairs (u32) for the
 * duplicate check of adds. `ptimes`: when each pinned entry of `order` was pinned (f64, pin-time.ts):
 * the pinned are in `order` most recently pinned first, and a tail's pins are merged in by it.
 * `cuid`: JSON `[[id, uid], …]` of the items a full read gives a uid their line does not hold (a
 * copied line, log/uid-copies.ts), so an item read by offset is the full read's; usually empty.
 */
export const SECTIONS = [
  'ids',
  'times',
  'lens',
  'offs',
  'spans',
  'lines',
  'order',
  'omin',
  'thash',
  'tinfo',
  'tstr',
  'pslot',
  'pfreq',
  'khash',
  'ptimes',
  'cuid',
] as const;
export type SectionName = (typeof SECTIONS)[number];

/** Per entry of `order` (u32 each): slot, line length in [background], scope number (0: none), reserved. */
export const ORDER_ENTRY = 16;
export const ORDER_BLOCK = 4096;

export interface IndexHeader {
  v: number;
  /** memory.jsonl as the index saw it: every whole line before `file.offset` is in it. */
  file: CursorState;
  maxId: number;
  /** The highest hlc stamp in the file, so a write through the index stamps after it (memory/log/hlc.ts). */
  maxHlc?: string;
  /** Lines not used, and lines used but reported (invalid UTF-8). */
  unreadable: number;
  keptAsIs: number;
  /** Entries of `cuid`. */
  copies: number;
  /** Lines of tombstones that name no item. */
  dangling: number[];
  /** Documents (active items). */
  n: number;
  /** How many of `order` are pinned (its first entries), and how many are in each segment (background-order.ts). */
  pinned: number;
  segments: number[];
  totalLen: number;
  /** Times never decrease with the slot (ids given in time order): see index/rank.ts. */
  timeOrdered: boolean;
  /** The word groups the terms were cut with (wordsKey): other groups, other terms. */
  words: number;
  terms: number;
  termCap: number;
  keyCap: number;
  /** Scope number − 1 → scope. */
  scopes: string[];
  /** Scope number − 1 → how many documents have it. */
  scopeCounts: number[];
  sections: Record<SectionName, [offset: number, bytes: number]>;
  /**
   * CRC-32 of memory.jsonl before `file.offset`, kept when the file had changed within RACY_MS of
   * the build: a later edit in the same clock tick could leave size, mtime and ctime as recorded,
   * so such an index is trusted only after its bytes are checked (git's "racily clean" entries).
   */
  racyCrc?: number;
  /** The whole file's length: a torn or truncated index is never taken for a whole one. */
  bytes: number;
}

/**
 * 32-bit FNV-1a over UTF-16 code units, then murmur3's finaliser: the term and key tables' hash.
 * The tables use its low bits, which plain FNV spreads poorly over short numeric terms.
 */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The word groups as the header records them. */
export function wordsKey(): number {
  return hash32(groupsKey());
}

/** A power of two at least twice `n` (at least 16): open addressing stays short. */
export function tableCap(n: number): number {
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  return cap;
}

/** A file changed this recently before an index was built may change again unseen by its timestamps. */
export const RACY_MS = 2000;

export const align8 = (n: number): number => (n + 7) & ~7;

/** The header's shape is what we wrote (a hand-made or damaged file is not trusted). */
export function validHeader(h: unknown, fileBytes: number): h is IndexHeader {
  if (typeof h !== 'object' || h === null) return false;
  const x = h as Partial<IndexHeader>;
  if (x.v !== FORMAT_VERSION || x.words !== wordsKey() || x.bytes !== fileBytes || typeof x.n !== 'number' || !x.file || !x.sections)
    return false;
  if (!Array.isArray(x.scopes) || !Array.isArray(x.scopeCounts) || !Array.isArray(x.dangling)) return false;
  if (!Number.isInteger(x.copies) || x.copies! < 0) return false;
  const seg = x.segments;
  if (!Array.isArray(seg) || seg.length !== 5 || seg.some((c) => !Number.isInteger(c) || c < 0)) return false;
  if (seg.reduce((a, c) => a + c, 0) !== x.n || seg[0]! + seg[1]! !== x.pinned) return false;
  for (const name of SECTIONS) {
    const s = x.sections[name];
    if (!Array.isArray(s) || s[0] % 8 !== 0 || s[0] + s[1] > fileBytes) return false;
  }
  // Per-document sections hold exactly n entries; the tables, their capacities.
  const n = x.n;
  const sizes: Array<[SectionName, number]> = [
    ['ids', n * 8],
    ['times', n * 8],
    ['lens', n * 4],
    ['offs', n * 8],
    ['spans', n * 4],
    ['lines', n * 8],
    ['order', n * ORDER_ENTRY],
    ['omin', Math.ceil(n / ORDER_BLOCK) * 4],
    ['thash', (x.termCap ?? -1) * 8],
    ['tinfo', (x.terms ?? -1) * 16],
    ['khash', (x.keyCap ?? -1) * 8],
    ['ptimes', (x.pinned ?? -1) * 8],
  ];
  return sizes.every(([name, bytes]) => x.sections![name][1] === bytes);
}

/** node:zlib, loaded by the first checksum (most starts need none). */
let zlibValue: typeof import('node:zlib') | null = null;
function zlibModule(): typeof import('node:zlib') {
  return (zlibValue ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));
}

/**
 * Byte offset of every line start (line L starts at [L − 1]; [lines] is `end`), read a piece at a
 * time, and the CRC-32 of those bytes (null where zlib has no crc32).
 */
export function lineStarts(path: string, end: number, lines: number): { starts: Float64Array; crc: number | null } {
  const out = new Float64Array(lines + 1);
  const zlib = zlibModule();
  let crc: number | null = typeof zlib.crc32 === 'function' ? 0 : null;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let line = 1;
    for (let pos = 0; pos < end;) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
      if (got === 0) break;
      if (crc !== null) crc = zlib.crc32(buf.subarray(0, got), crc);
      for (let i = buf.indexOf(0x0a); i !== -1 && i < got && line <= lines; i = buf.indexOf(0x0a, i + 1)) out[line++] = pos + i + 1;
      pos += got;
    }
  } finally {
    closeSync(fd);
  }
  return { starts: out, crc };
}

/** CRC-32 of the first `end` bytes of a file, as lineStarts computes it; null when it cannot be had. */
export function crcOf(path: string, end: number): number | null {
  return lineStarts(path, end, 0).crc;
}
