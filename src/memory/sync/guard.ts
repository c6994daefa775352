/**
 * Guards over what other writers send (docs/memory-sync.md, "Guards"): received records that would
 * take away what was written here, or flood the store, wait in review (held.ts) instead of applying.
 * - A writer new to this store (its file first read less than 7 days ago) forgets nothing written
 *   here without review: a fresh writer file cannot take a first slice under the threshold.
 * - Forgets of items written here from a known writer are counted per writer over a rolling 7 days,
 *   not per sync. When the count passes the threshold, the new ones wait and those that applied
 *   within the window are put back (put-back.ts) to wait with them: a mass forget spread over many
 *   small pushes is reviewed whole, like one in a single push.
 * - An item from another writer that `replaces` an item written here (a forged or foreign edit) waits
 *   with the forgets of that item, shown old beside new.
 * - A writer new to this store takes away no pin made here without review either: an unpinned item
 *   loses its place before received items in [background] (background-order.ts).
 * - More than FLOOD_ITEMS new items from one writer in one sync wait as one group (unless this
 *   store is empty: a machine joining takes what the repository holds).
 */
import { writeFileAtomicSync } from '../../util/atomic-write';
import { readTextIfExists } from '../../util/read-text';
import type { Ledger } from './ledger';
import type { WriterBatch } from './incoming';
import { isMark, type WireRecord } from './wire';

const FLOOD_ITEMS = 200;
const WINDOW_MS = 7 * 24 * 3600 * 1000;

export type HeldWhy = 'forgets' | 'edit' | 'flood' | 'unpins';

/** One held record, as kept in sync/held.jsonl. */
export interface HeldRecord {
  writer: string;
  name: string;
  why: HeldWhy;
  record: WireRecord;
  /**
   * A forget that applied, put back: its item was restored as `record.target_uid` (a new uid),
   * which accepting forgets here as the user's own change, so it reaches the other machines too.
   */
  restored?: true;
}

/** More than 20 items, or more than 10 % of the store (from 3 up: one forget in a tiny store is not a mass delete). */
export function isMassForget(forgets: number, active: number): boolean {
  return forgets > 20 || (forgets >= 3 && forgets > active * 0.1);
}

/** A forget of an item written here that applied: when, and the record as received (to put it back). */
interface Applied {
  at: string;
  record?: WireRecord;
}

/** What the guards remember between syncs (sync/guard.json, 0600). */
export interface GuardMemory {
  /** The first sync that ran the guards here: the writers read then were there before this machine joined. */
  joined?: string;
  /** When this store first read each writer's file: one first read after joining, within the window, is new. */
  seen: Record<string, string>;
  /** Forgets of items written here that applied, per writer, within the window. */
  forgets: Record<string, Applied[]>;
}

function isApplied(v: unknown): v is Applied {
  const a = v as Partial<Applied> | null;
  return typeof a === 'object' && a !== null && typeof a.at === 'string' && (a.record === undefined || typeof a.record === 'object');
}

export function loadGuard(path: string, now: Date): GuardMemory {
  let saved: unknown;
  try {
    // A missing file reads as '', which does not parse either.
    saved = JSON.parse(readTextIfExists(path));
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return { seen: {}, forgets: {} };
  }
  const out: GuardMemory = { seen: {}, forgets: {} };
  if (typeof saved !== 'object' || saved === null) return out;
  const v = saved as Record<string, unknown>;
  // The first form of the file held only the forget times, per writer: its writers count as not seen.
  const byWriter = (v.v === 2 ? v.forgets : v) as Record<string, unknown> | null;
  if (v.v === 2 && typeof v.joined === 'string' && Number.isFinite(Date.parse(v.joined))) out.joined = v.joined;
  if (v.v === 2 && typeof v.seen === 'object' && v.seen !== null)
    for (const [w, at] of Object.entries(v.seen)) if (typeof at === 'string' && Number.isFinite(Date.parse(at))) out.seen[w] = at;
  const since = now.getTime() - WINDOW_MS;
  for (const [w, list] of Object.entries(typeof byWriter === 'object' && byWriter !== null ? byWriter : {})) {
    if (!Array.isArray(list)) continue;
    // Only the window is kept: the file stays small however long the store lives.
    const kept = list
      .map((x): Applied | undefined => (typeof x === 'string' ? { at: x } : isApplied(x) ? x : undefined))
      .filter((a): a is Applied => a !== undefined && Date.parse(a.at) > since && Date.parse(a.at) <= now.getTime() + WINDOW_MS);
    if (kept.length > 0) out.forgets[w] = kept;
  }
  return out;
}

export function saveGuard(path: string, g: GuardMemory): void {
  writeFileAtomicSync(path, JSON.stringify({ v: 2, ...g }) + '\n', { mode: 0o600 });
}

export interface GuardView {
  /** The uid names an active item written on this machine (no `via`). */
  isHere(uid: string): boolean;
  /** Active items here. */
  active: number;
  /** Uids of items written here that a held edit already replaces. */
  heldEdits: ReadonlySet<string>;
  /** Writers whose forgets of items written here already wait in review: the next ones join them. */
  heldForgets?: ReadonlySet<string>;
  /** The item's pin was made here (its winning pin decision is this store's, or it was written pinned). */
  pinnedHere?(uid: string): boolean;
}

export interface GuardResult {
  /** The batches without what is held. */
  batches: WriterBatch[];
  held: HeldRecord[];
  /** Forgets of items written here let through, per writer: to add to the window once applied. */
  passed: Map<string, WireRecord[]>;
  /**
   * Forgets of a writer whose count over the window just passed the threshold that applied earlier
   * in the window: put back (the items restored) to wait with the rest, so the whole of a slow mass
   * forget is reviewed together.
   */
  putBack: HeldRecord[];
}

/**
 * Whether the writer is new here: its file first read (or about to be) after this store joined, less
 * than the window ago. The writers there when it joined are not: they are the machines it joined.
 */
function isNewWriter(g: GuardMemory, writer: string, now: Date): boolean {
  if (g.joined === undefined) return false;
  const seen = g.seen[writer];
  if (seen === undefined) return true;
  return Date.parse(seen) > Date.parse(g.joined) && now.getTime() - Date.parse(seen) < WINDOW_MS;
}

/** Split what arrived into what applies now and what waits in review. */
export function guardIncoming(batches: readonly WriterBatch[], ledger: Ledger, view: GuardView, g: GuardMemory, now: Date): GuardResult {
  const held: HeldRecord[] = [];
  const putBack: HeldRecord[] = [];
  const passed = new Map<string, WireRecord[]>();
  const out: WriterBatch[] = [];
  // A single sync that is a mass forget from known writers is left to the mass-forget guard (asked, or refused).
  let single = 0;
  for (const b of batches)
    if (!isNewWriter(g, b.writer, now))
      for (const r of b.records) if (r.kind === 'forget' && !ledger.knows(r.uid) && view.isHere(r.target_uid)) single++;
  const perSync = isMassForget(single, view.active);
  const edits = new Set(view.heldEdits);
  for (const b of batches)
    for (const r of b.records) if (!isMark(r) && r.replaces && !ledger.knows(r.uid) && view.isHere(r.replaces)) edits.add(r.replaces);
  for (const b of batches) {
    const hold = (r: WireRecord, why: HeldWhy) => held.push({ writer: b.writer, name: b.name, why, record: r });
    const fresh = b.records.filter((r) => !ledger.knows(r.uid));
    // An empty store (a machine joining) has nothing of the user's to push out: it takes the repository whole.
    const flood = view.active > 0 && fresh.filter((r) => !isMark(r)).length > FLOOD_ITEMS;
    const keep: WireRecord[] = [];
    const forgets: WireRecord[] = [];
    for (const r of b.records) {
      if (ledger.knows(r.uid)) keep.push(r);
      else if (!isMark(r) && r.replaces && edits.has(r.replaces)) hold(r, 'edit');
      else if (!isMark(r) && flood) hold(r, 'flood');
      else if (r.kind === 'forget' && edits.has(r.target_uid)) hold(r, 'edit');
      else if (r.kind === 'forget' && view.isHere(r.target_uid)) forgets.push(r);
      else if (r.kind === 'unpin' && view.pinnedHere?.(r.target_uid) && isNewWriter(g, b.writer, now)) hold(r, 'unpins');
      else keep.push(r);
    }
    if (forgets.length === 0) {
      out.push({ ...b, records: keep });
      continue;
    }
    const before = g.forgets[b.writer] ?? [];
    // Another part of the same writer's file, earlier in this sync, counts too.
    const earlier = passed.get(b.writer) ?? [];
    // A writer new to this store (a file first read within the window) takes nothing written here,
    // nor does one whose forgets already wait.
    if (isNewWriter(g, b.writer, now) || view.heldForgets?.has(b.writer)) for (const r of forgets) hold(r, 'forgets');
    else if (!perSync && isMassForget(before.length + earlier.length + forgets.length, view.active)) {
      for (const r of forgets) hold(r, 'forgets');
      for (const a of before) if (a.record) putBack.push({ writer: b.writer, name: b.name, why: 'forgets', record: a.record });
    } else {
      keep.push(...forgets);
      passed.set(b.writer, [...earlier, ...forgets]);
    }
    out.push({ ...b, records: keep });
  }
  return { batches: out, held, passed, putBack };
}

/**
 * The guards' memory after a sync: every writer read is seen (from now, if not before), the forgets
 * let through join the window, and those put back stay counted but are never put back twice.
 */
export function noteGuard(
  g: GuardMemory,
  writers: readonly string[],
  passed: ReadonlyMap<string, WireRecord[]>,
  putBack: readonly HeldRecord[],
  now: Date,
): GuardMemory {
  const at = now.toISOString();
  const joined = g.joined ?? at;
  const seen = { ...g.seen };
  for (const w of writers) seen[w] ??= at;
  const back = new Set(putBack.map((h) => h.record.uid));
  const forgets: Record<string, Applied[]> = {};
  for (const [w, list] of Object.entries(g.forgets)) forgets[w] = list.map((a) => (a.record && back.has(a.record.uid) ? { at: a.at } : a));
  for (const [w, list] of passed) forgets[w] = [...(forgets[w] ?? []), ...list.map((record) => ({ at, record }))];
  return { joined, seen, forgets };
}
