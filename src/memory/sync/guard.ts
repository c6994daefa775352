/**
 * Guards over what other writers send (docs/memory-sync.md, "Guards"): received records that would
 * take away what was written here, or flood the store, wait in review (held.ts) instead of applying.
 * - Forgets of items written here are counted per writer over a rolling 7 days, not per sync, so
 *   a mass forget spread over many small pushes is caught like one in a single push.
 * - An item from another writer that `replaces` an item written here (a forged or foreign edit) waits
 *   with the forgets of that item, shown old beside new.
 * - More than FLOOD_ITEMS new items from one writer in one sync wait as one group (unless this
 *   store is empty: a machine joining takes what the repository holds).
 */
import { readFileSync } from 'node:fs';
import { errnoCode } from '../../util/errors';
import { writeFileAtomicSync } from '../../util/atomic-write';
import type { Ledger } from './ledger';
import type { WriterBatch } from './incoming';
import { isMark, type WireRecord } from './wire';

const FLOOD_ITEMS = 200;
const WINDOW_MS = 7 * 24 * 3600 * 1000;

export type HeldWhy = 'forgets' | 'edit' | 'flood';

/** One held record, as kept in sync/held.jsonl. */
export interface HeldRecord {
  writer: string;
  name: string;
  why: HeldWhy;
  record: WireRecord;
}

/** More than 20 items, or more than 10 % of the store (from 3 up: one forget in a tiny store is not a mass delete). */
export function isMassForget(forgets: number, active: number): boolean {
  return forgets > 20 || (forgets >= 3 && forgets > active * 0.1);
}

/** Times of forgets of items written here that were applied, per writer (sync/guard.json, 0600). */
type ForgetTimes = Record<string, string[]>;

export function loadForgetTimes(path: string, now: Date): ForgetTimes {
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT' && !(err instanceof SyntaxError)) throw err;
    return {};
  }
  const out: ForgetTimes = {};
  if (typeof saved !== 'object' || saved === null) return out;
  const since = now.getTime() - WINDOW_MS;
  for (const [w, list] of Object.entries(saved as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    // Only the window is kept: the file stays small however long the store lives.
    const kept = list.filter(
      (t): t is string => typeof t === 'string' && Date.parse(t) > since && Date.parse(t) <= now.getTime() + WINDOW_MS,
    );
    if (kept.length > 0) out[w] = kept;
  }
  return out;
}

export function saveForgetTimes(path: string, times: ForgetTimes): void {
  writeFileAtomicSync(path, JSON.stringify(times) + '\n', { mode: 0o600 });
}

export interface GuardView {
  /** The uid names an active item written on this machine (no `via`). */
  isHere(uid: string): boolean;
  /** Active items here. */
  active: number;
  /** Uids of items written here that a held edit already replaces. */
  heldEdits: ReadonlySet<string>;
}

export interface GuardResult {
  /** The batches without what is held. */
  batches: WriterBatch[];
  held: HeldRecord[];
  /** Forgets of items written here let through, per writer: to add to the window once applied. */
  passed: Map<string, number>;
}

/** Split what arrived into what applies now and what waits in review. */
export function guardIncoming(batches: readonly WriterBatch[], ledger: Ledger, view: GuardView, times: ForgetTimes): GuardResult {
  const held: HeldRecord[] = [];
  const passed = new Map<string, number>();
  const out: WriterBatch[] = [];
  // A single sync that is a mass forget on its own is left to the mass-forget guard (asked, or refused).
  let single = 0;
  for (const b of batches)
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
      else keep.push(r);
    }
    if (forgets.length > 0) {
      const before = times[b.writer]?.length ?? 0;
      if (!perSync && isMassForget(before + forgets.length, view.active)) for (const r of forgets) hold(r, 'forgets');
      else {
        keep.push(...forgets);
        passed.set(b.writer, forgets.length);
      }
    }
    out.push({ ...b, records: keep });
  }
  return { batches: out, held, passed };
}

/** Add the forgets let through to the window. */
export function countForgets(times: ForgetTimes, passed: ReadonlyMap<string, number>, now: Date): ForgetTimes {
  const next = { ...times };
  const at = now.toISOString();
  for (const [w, n] of passed) next[w] = [...(next[w] ?? []), ...Array.from({ length: n }, () => at)];
  return next;
}
