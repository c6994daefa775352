/**
 * Stable identity of memory records, the same on every machine a record reaches: `uid`, a ULID
 * (monotonic within the process), and `hlc`, a hybrid logical clock stamp (hlc.ts). Integer ids
 * stay local handles. A record written before uids existed gets one derived from its own kind,
 * time and content, so two copies of one old file agree; it is computed when asked for, never
 * written back by a load (docs/memory-file.md#identity).
 */
import { createHash } from 'node:crypto';
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

interface AnyRecord {
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
 * ULID-shaped (so it sorts by time like a real one): the record's time in the first 10 characters,
 * then 80 bits of SHA-256 over kind, ts, content, scope and target. Never the record's own id or
 * line: those differ between machines.
 */
export function derivedUid(r: AnyRecord): string {
  const t = isoTime(r.ts);
  let time = Number.isFinite(t) ? Math.min(Math.max(0, t), MAX_TIME) : 0;
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[time % 32]! + out;
    time = Math.floor(time / 32);
  }
  const what = JSON.stringify([r.kind, r.ts, r.content ?? null, r.scope ?? null, r.target ?? null]);
  const h = createHash('sha256').update(what).digest();
  // 80 bits, 5 at a time: two groups of 40 bits (5 bytes each), each safe as a plain number.
  for (const at of [0, 5]) {
    let v = h.readUIntBE(at, 5);
    let part = '';
    for (let i = 0; i < 8; i++) {
      part = CROCKFORD[v % 32]! + part;
      v = Math.floor(v / 32);
    }
    out += part;
  }
  return out;
}
