/**
 * Stable identity of memory records, the same on every machine a record reaches: `uid`, a ULID
 * (monotonic within the process), and `hlc`, a hybrid logical clock stamp (hlc.ts). Integer ids
 * stay local handles. A record written before uids existed gets one derived from its own kind,
 * time and content, so two copies of one old file agree; it is computed when asked for, never
 * written back by a load (docs/memory-file.md#identity).
 */
import { HybridClock } from './hlc';
import { isoTime } from './parse';

/** What every record written from now on carries. */
export interface Identity {
  uid: string;
  hlc: string;
}

type UlidFactory = (seedTime?: number) => string;
let ulidFactory: UlidFactory | null = null;
const clock = new HybridClock();

/**
 * Load the ULID package. Every write awaits this before it takes the lock, so start-up, which
 * writes nothing, never loads it.
 */
export async function loadIdentity(): Promise<void> {
  if (ulidFactory) return;
  const { monotonicFactory } = await import('ulid');
  ulidFactory ??= monotonicFactory();
}

/** A fresh identity for a record written at `now`. */
export function newIdentity(now: Date): Identity {
  if (!ulidFactory) throw new Error('record identity used before loadIdentity()');
  const wall = now.getTime();
  return { uid: ulidFactory(Math.max(0, wall)), hlc: clock.next(wall) };
}

/** Move this process's clock past a stamp the store holds (the highest read from the file). */
export function observeStamp(hlc: string | undefined): void {
  clock.observe(hlc);
}

/** What a record's uid depends on (the log's records and the copied-line check read it). */
export interface AnyRecord {
  uid?: unknown;
  ts: string;
  kind: string;
  content?: string;
  scope?: string;
  target?: number;
}

/** The record's uid: its own, or for an old record one derived from what it says and when. */
export function uidOf(r: AnyRecord): string {
  return typeof r.uid === 'string' && r.uid !== '' ? r.uid : derivedUid(r);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_TIME = 2 ** 48 - 1;

/**
 * 53 bits of a string (cyrb53: two 32-bit multiply-xorshift lanes). Not cryptographic: derived uids
 * only tell apart records of one user's old files, and this is ~10× cheaper than a SHA-256 per
 * record, which a listing of 1M old items would pay for each.
 */
function hash53(s: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** `n` characters of Crockford base 32 from the low bits of `v` (a safe integer). */
function base32(v: number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    out = CROCKFORD[v % 32]! + out;
    v = Math.floor(v / 32);
  }
  return out;
}

/**
 * ULID-shaped (so it sorts by time like a real one): the record's time in the first 10 characters,
 * then 80 bits hashed from kind, ts, content, scope and target (two seeded 53-bit hashes, 40 bits
 * of each). Never the record's own id or line: those differ between machines.
 */
export function derivedUid(r: AnyRecord): string {
  return ulidShaped(r.ts, JSON.stringify([r.kind, r.ts, r.content ?? null, r.scope ?? null, r.target ?? null]));
}

function ulidShaped(ts: string, what: string): string {
  const t = isoTime(ts);
  const time = Number.isFinite(t) ? Math.min(Math.max(0, t), MAX_TIME) : 0;
  return base32(time, 10) + base32(hash53(what, 1) % 2 ** 40, 8) + base32(hash53(what, 2) % 2 ** 40, 8);
}

/**
 * The uid of a record whose uid an earlier record of the file already has (a hand-copied line):
 * made from that uid and the copy's own id and fields, so every reader of the file gives the copy
 * the same one, and two copies of one line get two.
 */
export function copyUid(r: AnyRecord & { id: number }, repeated: string): string {
  return ulidShaped(r.ts, JSON.stringify(['copy', repeated, r.id, r.kind, r.ts, r.content ?? null, r.scope ?? null, r.target ?? null]));
}
