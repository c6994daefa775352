/**
 * Other writers' new records, from the byte each file was last read to, and what they mean here
 * (docs/memory-sync.md, "Merge rules"):
 * - an item: union by uid — added with a new local id unless this store has or had it;
 * - a forget: by target uid, from any writer; an item forgotten first and received later stays out;
 * - a pin or unpin: the latest by (hlc, writer id) wins, whatever order they arrive in;
 * - two items replacing one item (an edit made on two machines) both stay: a conflict for review.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_AHEAD_MS, stampTime } from '../log/hlc';
import { isoTime } from '../log/parse';
import type { Ledger, PinState } from './ledger';
import { readTail } from './tail';
import { isMark, type WireItem, type WireMark, type WireRecord } from './wire';

export interface WriterBatch {
  writer: string;
  /** The file's part key (paths.ts): its read position is kept under it. */
  key: string;
  /** The label the writer gave itself (`memory.sync.name`), else its id. */
  name: string;
  records: WireRecord[];
  /** Byte offset after the last whole line read. */
  end: number;
  bad: number;
}

const WRITER_FILE = /^([0-9a-f]{16})(?:\.([1-9]\d{0,8}))?\.jsonl$/;

/**
 * The new whole lines of every writer file but ours. `ownName`: this machine's `memory.sync.name`,
 * which no other writer may take (writerName).
 */
export function readWriters(repo: string, self: string, read: Readonly<Record<string, number>>, ownName?: string): WriterBatch[] {
  let names: string[];
  try {
    names = readdirSync(join(repo, 'writers'));
  } catch {
    return [];
  }
  const out: WriterBatch[] = [];
  const files = names
    .map((file) => ({ file, m: WRITER_FILE.exec(file) }))
    .filter((f): f is { file: string; m: RegExpExecArray } => f.m !== null && f.m[1] !== self)
    .map(({ file, m }) => ({ file, writer: m[1]!, part: Number(m[2] ?? 1) }))
    // A writer's parts in order (numerically: part 10 after part 9).
    .sort((a, b) => (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : a.part - b.part));
  for (const { file, writer, part } of files) {
    const key = part === 1 ? writer : `${writer}.${part}`;
    // A file shorter than what was read was rewritten upstream: read from the start (uids keep it idempotent).
    const tail = readTail(join(repo, 'writers', file), read[key] ?? 0, { header: true });
    if (!tail) continue;
    out.push({ writer, key, name: writerName(tail.name, writer, ownName), records: tail.records, end: tail.end, bad: tail.bad });
  }
  return out;
}

/**
 * The name a writer's items are labelled with (`(from laptop)`): the one its file gives, unless that
 * reads as this machine — empty, `here`, `this machine`, or this machine's own name, however spelt
 * (case, width, spacing) — which would make the label pass for the user's own line: then its id.
 */
function writerName(said: string | undefined, writer: string, ownName: string | undefined): string {
  const folded = said === undefined ? '' : fold(said);
  const own = ownName === undefined ? '' : fold(ownName);
  if (folded === '' || folded === 'here' || folded === 'this machine' || folded === own) return writer;
  return said!;
}

function fold(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\p{Cf}\p{Cc}]/gu, '')
    .trim();
}

/**
 * Records stamped more than MAX_AHEAD_MS ahead of this machine's clock (their writer's clock was
 * wrong) taken at this clock: such an `hlc` becomes `stamp()`, such a `ts`, `pinned_at` or
 * `confirmed` becomes `now`. Otherwise one would sort after everything written here for years, win
 * every pin decision, or never be stale. Returns how many of them `isNew` (not known here yet).
 */
export function takeAtThisClock(batches: WriterBatch[], now: Date, stamp: () => string, isNew: (uid: string) => boolean): number {
  const limit = now.getTime() + MAX_AHEAD_MS;
  const at = now.toISOString();
  const ahead = (t: number) => t > limit;
  let n = 0;
  for (const b of batches) {
    b.records = b.records.map((r) => {
      const pinnedAt = 'pinned_at' in r && typeof r.pinned_at === 'string' && ahead(isoTime(r.pinned_at));
      const confirmed = 'confirmed' in r && typeof r.confirmed === 'string' && ahead(isoTime(r.confirmed));
      const hlc = ahead(stampTime(r.hlc));
      const ts = ahead(isoTime(r.ts));
      if (!hlc && !ts && !pinnedAt && !confirmed) return r;
      if (isNew(r.uid)) n++;
      return {
        ...r,
        ...(hlc && { hlc: stamp() }),
        ...(ts && { ts: at }),
        ...(pinnedAt && { pinned_at: at }),
        ...(confirmed && { confirmed: at }),
      };
    });
  }
  return n;
}

/** A record for memory.jsonl, still without its local id. */
type LocalRecord = Record<string, unknown>;

export interface IncomingPlan {
  /** In order; `id` is assigned when they are written. Forget and pin records name their target by local id. */
  records: LocalRecord[];
  /** Facts for the ledger once the records are written. */
  facts: Array<(l: Ledger) => void>;
  /** Records new to this store. */
  received: number;
  /** Writers that sent any. */
  machines: Set<string>;
  /** Active items here these records forget. */
  forgets: number;
  /** Uids replaced by a received item (conflict candidates). */
  replaced: Set<string>;
}

export interface LocalView {
  /** Whether this store has (or had) an item with this uid outside the ledger (outbox, unsent items). */
  hasLocally(uid: string): boolean;
  /** The local id of an active item with this uid, if the ledger's id still names it. */
  activeId(uid: string, ledgerId: number): number | undefined;
}

/** What the batches mean for this store, without changing anything; `firstId` is the next free local id. */
export function planIncoming(batches: readonly WriterBatch[], ledger: Ledger, view: LocalView, firstId: number): IncomingPlan {
  const plan: IncomingPlan = { records: [], facts: [], received: 0, machines: new Set(), forgets: 0, replaced: new Set() };
  const added = new Map<string, number>();
  const forgotten = new Set<string>();
  const seen = new Set<string>();
  const pins = new Map<string, PinState>();
  let next = firstId;
  const isForgotten = (uid: string) => forgotten.has(uid) || ledger.isForgotten(uid);
  const pinOf = (uid: string) => pins.get(uid) ?? ledger.pinOf(uid);
  const localId = (uid: string): number | undefined => {
    if (isForgotten(uid)) return undefined;
    const a = added.get(uid);
    if (a !== undefined) return a;
    const l = ledger.itemOf(uid);
    return l && l.id > 0 ? view.activeId(uid, l.id) : undefined;
  };

  for (const b of batches) {
    for (const r of b.records) {
      if (seen.has(r.uid) || ledger.knows(r.uid) || added.has(r.uid)) continue;
      seen.add(r.uid);
      if (!isMark(r)) {
        if (isForgotten(r.uid) || view.hasLocally(r.uid)) {
          plan.facts.push((l) => l.item(r.uid, 0, r.replaces));
          continue;
        }
        const id = next++;
        added.set(r.uid, id);
        plan.records.push(localItem(id, r, b.name));
        plan.facts.push((l) => l.item(r.uid, id, r.replaces));
        const p = pinOf(r.uid);
        // Its pin or unpin came first (from another writer's file): applied now, as a local-only record.
        if (p && p.on !== (r.pinned === true)) plan.records.push(latePin(next++, r, p, id, b.name));
        if (r.replaces) plan.replaced.add(r.replaces);
      } else {
        plan.facts.push((l) => l.other(r.uid));
        if (r.kind === 'forget') {
          const target = localId(r.target_uid);
          if (target !== undefined) {
            plan.records.push(localMark(next++, r, target, b.name));
            plan.forgets++;
          }
          forgotten.add(r.target_uid);
          plan.facts.push((l) => l.forget(r.target_uid));
        } else {
          const cur = pinOf(r.target_uid);
          const wins = !cur || r.hlc > cur.hlc || (r.hlc === cur.hlc && b.writer > cur.writer);
          if (!wins) continue;
          const state: PinState = { hlc: r.hlc, writer: b.writer, on: r.kind === 'pin' };
          pins.set(r.target_uid, state);
          plan.facts.push((l) => l.pin(r.target_uid, state));
          const target = localId(r.target_uid);
          if (target !== undefined) plan.records.push(localMark(next++, r, target, b.name));
        }
      }
      plan.received++;
      plan.machines.add(b.writer);
    }
  }
  return plan;
}

/** Its fields in the order they came in, after a local id; `via` last. */
function localItem(id: number, r: WireItem, via: string): LocalRecord {
  return { id, ...r, via };
}

function latePin(id: number, r: WireItem, p: PinState, target: number, via: string): LocalRecord {
  return { id, hlc: p.hlc, ts: r.ts, kind: p.on ? 'pin' : 'unpin', target, target_uid: r.uid, via };
}

function localMark(id: number, r: WireMark, target: number, via: string): LocalRecord {
  return { id, uid: r.uid, hlc: r.hlc, ts: r.ts, kind: r.kind, target, target_uid: r.target_uid, via };
}
