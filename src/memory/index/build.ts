/**
 * Building the index from a full read of memory.jsonl: the only way one comes to be. What it holds
 * is derived from the store's state exactly as the in-memory code derives it (selection order,
 * pins, scopes, terms, keys), so answers from the index equal those of a full read.
 */
import { terms } from '../../util/terms';
import { intoSegments, isPinSegment, segmentOf } from '../background/background-order';
import { backgroundLine } from '../background/blocks';
import { recalledFields } from '../log/field-codec';
import { danglingTombstones } from '../log/dangling';
import { isoTime } from '../log/parse';
import { pinTime } from '../log/pin-time';
import { sameItemKey } from '../log/records';
import { grow, Postings } from '../recall/recall-postings';
import type { MemoryStore } from '../store';
import { unreadableCount, type MemoryItem } from '../types';
import {
  align8,
  FORMAT_VERSION,
  hash32,
  lineStarts,
  MAGIC,
  ORDER_BLOCK,
  ORDER_ENTRY,
  PREAMBLE,
  RACY_MS,
  SECTIONS,
  tableCap,
  type IndexHeader,
  type SectionName,
  wordsKey,
} from './layout';

/** The text recall ranks an item by: its content, then the fields log/fields.ts has recall search (tags, keys). */
export function recallText(item: MemoryItem): string {
  return item.content + recalledFields(item);
}

/** An index laid out: its header (with section offsets) and the bytes to write at each offset. */
export interface BuiltIndex {
  header: IndexHeader;
  /** Preamble and header text, for offset 0. */
  head: Buffer;
  parts: Record<SectionName, Uint8Array>;
}

/** `started`: when the read of the file began (for RACY_MS). */
export function buildIndex(store: MemoryStore, started: number): BuiltIndex {
  const { state, cursor } = store.committed();
  const active = state.active();
  const n = active.length;
  // Slots in id order; `slotOf[i]`: the slot of active[i]. The file is usually in id order, so newest first reversed.
  const perm = Array.from({ length: n }, (_, i) => n - 1 - i);
  if (!perm.every((a, i) => i === 0 || active[perm[i - 1]!]!.id < active[a]!.id)) perm.sort((a, b) => active[a]!.id - active[b]!.id);
  const docs = perm.map((i) => active[i]!);
  const slotOf = new Int32Array(n);
  perm.forEach((a, s) => (slotOf[a] = s));
  const { starts: lineStart, crc } = lineStarts(store.path, cursor.offset, cursor.lines);

  const ids = new Float64Array(n);
  const times = new Float64Array(n);
  const lens = new Int32Array(n);
  const offs = new Float64Array(n);
  const spans = new Uint32Array(n);
  const lines = new Uint32Array(n * 2);
  const scopeNo = new Map<string, number>();
  const dict = new Map<string, number>();
  const post = new Postings();
  const keys = new Uint32Array(tableCap(n) * 2);
  let totalLen = 0;
  let seenIn = new Int32Array(1024);
  let tf = new Int32Array(1024);
  const distinct: number[] = [];
  const given: Array<[number, string]> = [];
  for (let s = 0; s < n; s++) {
    const it = docs[s]!;
    ids[s] = it.id;
    const uid = state.copies.givenUid(it.id);
    if (uid !== undefined) given.push([it.id, uid]);
    times[s] = Number.isFinite(isoTime(it.ts)) ? isoTime(it.ts) : 0;
    const [first, last] = state.linesOf(it.id)!;
    offs[s] = lineStart[first - 1]!;
    spans[s] = lineStart[last]! - lineStart[first - 1]!;
    if (it.scope !== undefined && !scopeNo.has(it.scope)) scopeNo.set(it.scope, scopeNo.size + 1);
    // Without the age (now 0): readers add it (blocks.ts ageChars).
    lines[s * 2] = backgroundLine(it, 0).length;
    lines[s * 2 + 1] = it.scope === undefined ? 0 : scopeNo.get(it.scope)!;
    const words = terms(recallText(it));
    lens[s] = words.length;
    totalLen += words.length;
    // Each term once per document with its count, without a Map per document.
    distinct.length = 0;
    for (const w of words) {
      let t = dict.get(w);
      if (t === undefined) {
        dict.set(w, (t = post.addTerm(0)));
        if (t === seenIn.length) {
          seenIn = grow(seenIn, t * 2);
          tf = grow(tf, t * 2);
        }
      }
      if (seenIn[t] !== s + 1) {
        seenIn[t] = s + 1;
        tf[t] = 1;
        distinct.push(t);
      } else tf[t]!++;
    }
    for (const t of distinct) post.append(t, s, tf[t]!);
    insert(keys, hash32(sameItemKey(it.scope, it.content)), s + 1);
  }
  post.repack(null, true);

  // [background] candidates (indexes into `active`) by segment (background-order.ts), the pinned first.
  const pins = state.pinsByTarget();
  const { segs: groups, pinTimes } = intoSegments(
    active.keys(),
    (i) => segmentOf(active[i]!, state.isPinned(active[i]!)),
    (i) => pinTime(pins, active[i]!),
    (i) => active[i]!.id,
  );
  const ptimes = Float64Array.from(groups.filter((_, g) => isPinSegment(g)).flat(), (i) => pinTimes.get(i)!);
  const order = Buffer.alloc(n * ORDER_ENTRY);
  const omin = new Uint32Array(Math.ceil(n / ORDER_BLOCK)).fill(0xffffffff);
  let o = 0;
  for (const i of groups.flat()) {
    const s = slotOf[i]!;
    order.writeUInt32LE(s, o);
    const len = lines[s * 2]!;
    order.writeUInt32LE(len, o + 4);
    const block = o / ORDER_ENTRY / ORDER_BLOCK;
    omin[Math.floor(block)] = Math.min(omin[Math.floor(block)]!, len);
    order.writeUInt32LE(lines[s * 2 + 1]!, o + 8);
    o += ORDER_ENTRY;
  }

  const termCap = tableCap(dict.size);
  const thash = new Uint32Array(termCap * 2);
  const tinfo = new Uint32Array(dict.size * 4);
  const strs: Buffer[] = [];
  let strOff = 0;
  const none = new Uint8Array(n);
  for (const [w, t] of dict) {
    insert(thash, hash32(w), t + 1);
    const b = Buffer.from(w, 'utf8');
    tinfo.set([post.begin(t), post.clean(t, none, 0), strOff, b.length], t * 4);
    strs.push(b);
    strOff += b.length;
  }
  const used = post.terms ? post.begin(post.terms - 1) + post.clean(post.terms - 1, none, 0) : 0;

  const parts: Record<SectionName, Uint8Array> = {
    ids: bytesOf(ids),
    times: bytesOf(times),
    lens: bytesOf(lens),
    offs: bytesOf(offs),
    spans: bytesOf(spans),
    lines: bytesOf(lines),
    order,
    omin: bytesOf(omin),
    thash: bytesOf(thash),
    tinfo: bytesOf(tinfo),
    tstr: Buffer.concat(strs),
    pslot: bytesOf(new Uint32Array(post.slots.buffer, post.slots.byteOffset, used)),
    pfreq: bytesOf(post.freqs.subarray(0, used)),
    khash: bytesOf(keys),
    ptimes: bytesOf(ptimes),
    cuid: Buffer.from(given.length ? JSON.stringify(given) : ''),
  };
  const skipped = store.skipped;
  const unreadable = unreadableCount(skipped);
  const header: Omit<IndexHeader, 'sections' | 'bytes'> = {
    v: FORMAT_VERSION,
    file: cursor,
    maxId: state.maxId,
    ...(state.maxHlc !== undefined && { maxHlc: state.maxHlc }),
    unreadable,
    keptAsIs: skipped.length - unreadable,
    copies: given.length,
    dangling: danglingTombstones(state).map((t) => t.line),
    n,
    pinned: ptimes.length,
    segments: groups.map((g) => g.length),
    totalLen,
    words: wordsKey(),
    timeOrdered: times.every((t, i) => i === 0 || t >= times[i - 1]!),
    terms: dict.size,
    termCap,
    keyCap: keys.length / 2,
    scopes: [...scopeNo.keys()],
    scopeCounts: countScopes(lines, scopeNo.size),
    ...(cursor.ctime >= started - RACY_MS && crc !== null && { racyCrc: crc }),
  };
  return layOut(header, parts);
}

/** Lay the header and the sections out; the header's length is fixed by padding, so offsets do not move. */
function layOut(head: Omit<IndexHeader, 'sections' | 'bytes'>, parts: Record<SectionName, Uint8Array>): BuiltIndex {
  const probe = JSON.stringify({ ...head, sections: Object.fromEntries(SECTIONS.map((s) => [s, [1e15, 1e15]])), bytes: 1e15 });
  const start = align8(PREAMBLE + Buffer.byteLength(probe) + 8);
  const sections = {} as IndexHeader['sections'];
  let at = start;
  for (const name of SECTIONS) {
    sections[name] = [at, parts[name].length];
    at = align8(at + parts[name].length);
  }
  const header: IndexHeader = { ...head, sections, bytes: at };
  const text = Buffer.from(JSON.stringify(header).padEnd(start - PREAMBLE, ' '), 'utf8');
  const pre = Buffer.alloc(PREAMBLE);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(text.length, 8);
  return { header, head: Buffer.concat([pre, text]), parts };
}

/** The index's bytes in file order: the head, then each section and the zeros that align the next. */
export function chunksOf(b: BuiltIndex): Uint8Array[] {
  const out: Uint8Array[] = [b.head];
  let end = b.head.length;
  for (const name of SECTIONS) {
    const [at, len] = b.header.sections[name];
    out.push(new Uint8Array(at - end), b.parts[name]);
    end = at + len;
  }
  out.push(new Uint8Array(b.header.bytes - end));
  return out;
}

/** The whole index as one buffer (when it cannot be written, it is used from memory). */
export function assemble(b: BuiltIndex): Buffer {
  return Buffer.concat(chunksOf(b), b.header.bytes);
}

/** Documents per scope number − 1. */
function countScopes(lines: Uint32Array, scopes: number): number[] {
  const counts = new Array<number>(scopes).fill(0);
  for (let i = 1; i < lines.length; i += 2) if (lines[i]) counts[lines[i]! - 1]!++;
  return counts;
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Open addressing, linear probing, pairs of [hash, value]. */
function insert(table: Uint32Array, h: number, value: number): void {
  const mask = table.length / 2 - 1;
  for (let i = h & mask; ; i = (i + 1) & mask) {
    if (table[i * 2 + 1] === 0) {
      table[i * 2] = h;
      table[i * 2 + 1] = value;
      return;
    }
  }
}
