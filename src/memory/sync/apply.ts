/**
 * Writing received records into memory.jsonl: planned against the index (no full read), checked
 * by the mass-forget guard, then planned again and written by the log's one write (log/write.ts). The
 * ledger learns of them only after they are on disk; a sync stopped in between finds them in
 * memory.jsonl by their `via` (outgoing.ts) and never adds them twice.
 */
import { uidOf } from '../log/identity';
import { MemoryIndex } from '../index/memory-index';
import { caughtUp } from '../index/position';
import { writeRecords, type WriteOptions } from '../log/write';
import type { Ledger } from './ledger';
import { planIncoming, type IncomingPlan, type LocalView, type WriterBatch } from './incoming';
import { guardIncoming, isMassForget, loadGuard, noteGuard, saveGuard, type HeldRecord, type HeldWhy } from './guard';
import { groupHeld, holdMore, readHeld } from './held';
import { isMark } from './wire';
import { emptyDraft, ReceiptFile, type ReceiptDraft } from '../receipts/receipts';
import { originOf } from '../origin';
import { receiptsOf } from './receipts-of';
import { putBack } from './put-back';
import { undoneElsewhere } from './undone-elsewhere';

export interface ApplyOptions extends Pick<WriteOptions, 'lock' | 'notice' | 'now'> {
  /** Uids this store holds that the ledger does not (unsent items). */
  known: ReadonlySet<string>;
  /** Asked when the records would forget many items; false (or no terminal) refuses. */
  confirmForgets: (forgets: number, active: number) => Promise<boolean>;
  dryRun: boolean;
  /** The guards' files (guard.ts); absent when applying what the user accepted in review. */
  guard?: {
    held: string;
    times: string;
    /** Writers whose files earlier syncs read (a store that synced before the guards remembered writers). */
    readBefore?: readonly string[];
    /** This store's writer id: a pin decision of its own is a pin made here. */
    self?: string;
  };
}

/** Received records that wait in review instead of applying, per writer and reason. */
export interface Waiting {
  name: string;
  why: HeldWhy;
  n: number;
}

export interface ApplyResult {
  received: number;
  machines: number;
  forgets: number;
  /** Items here replaced by more than one active item. */
  conflicts: number;
  /** Set when the guard refused: nothing was written. */
  refused?: { forgets: number; active: number };
  waiting: Waiting[];
}

export async function applyIncoming(file: string, arrived: readonly WriterBatch[], ledger: Ledger, o: ApplyOptions): Promise<ApplyResult> {
  const ix = new MemoryIndex(file);
  try {
    ix.refresh();
    let batches = arrived;
    const g = o.guard;
    const already = g ? readHeld(g.held) : [];
    const memory = g ? loadGuard(g.times, o.now()) : { seen: {}, forgets: {} };
    let guarded: ReturnType<typeof guardIncoming> | undefined;
    if (g) {
      const isHere = (uid: string): boolean => {
        const l = ledger.itemOf(uid);
        if (!l || l.id <= 0 || ledger.isForgotten(uid)) return false;
        const it = ix.get(l.id);
        // A received item carries `via` (the writer's label): only items without one were written here.
        return it !== undefined && uidOf(it) === uid && !('via' in it);
      };
      const pinnedHere = (uid: string): boolean => {
        if (!isHere(uid)) return false;
        const p = ledger.pinOf(uid);
        return p ? p.on && p.writer === g.self : ix.get(ledger.itemOf(uid)!.id)?.pinned === true;
      };
      const groups = groupHeld(already);
      const heldEdits = new Set(groups.flatMap((h) => (h.replaces ? [h.replaces] : [])));
      const heldForgets = new Set(groups.filter((h) => h.why === 'forgets').map((h) => h.writer));
      guarded = guardIncoming(arrived, ledger, { isHere, pinnedHere, active: ix.counts().total, heldEdits, heldForgets }, memory, o.now());
      batches = guarded.batches;
    }
    const waiting = waitingOf([...(guarded?.held ?? []), ...(guarded?.putBack ?? [])]);
    const view: LocalView = {
      hasLocally: (uid) => o.known.has(uid),
      activeId: (uid, id) => {
        const it = ix.get(id);
        return it && uidOf(it) === uid ? id : undefined;
      },
    };
    const planNow = (): { plan: IncomingPlan; active: number } => {
      ix.refresh();
      const c = ix.counts();
      return { plan: planIncoming(batches, ledger, view, c.maxId + 1), active: c.total };
    };
    const first = planNow();
    const active = first.active;
    let plan = first.plan;
    const result = (p: IncomingPlan): ApplyResult => ({
      received: p.received,
      machines: p.machines.size,
      forgets: p.forgets,
      conflicts: conflictsAfter(p, ledger),
      waiting,
    });
    if (plan.records.length > 0 && isMassForget(plan.forgets, active) && !(await o.confirmForgets(plan.forgets, active))) {
      return { ...result(plan), received: 0, machines: 0, conflicts: 0, refused: { forgets: plan.forgets, active } };
    }
    if (o.dryRun) return result(plan);
    let drafts: ReceiptDraft[] = [];
    if (plan.records.length > 0) {
      plan = await writeRecords(
        file,
        () => caughtUp(ix),
        (next) => {
          const again = planIncoming(batches, ledger, view, next);
          drafts = receiptsOf(again.records, ix);
          return { records: again.records, result: again };
        },
        { ...(o.lock && { lock: o.lock }), notice: o.notice, now: o.now },
      );
    }
    for (const f of plan.facts) f(ledger);
    ledger.flush();
    if (g && guarded) {
      const back = await putBackSaying(file, guarded.putBack, o);
      const fresh = [...back, ...guarded.held];
      holdMore(g.held, fresh, already);
      const seen = [...arrived.map((b) => b.writer), ...(memory.joined === undefined ? (g.readBefore ?? []) : [])];
      saveGuard(g.times, noteGuard(memory, seen, guarded.passed, back.length > 0 ? guarded.putBack : [], o.now()));
      const was = new Set(already.map((h) => h.record.uid));
      drafts = withHeld(drafts, waitingOf(fresh.filter((h) => !was.has(h.record.uid))));
    }
    await recordReceipts(file, drafts, o);
    await markUndoneElsewhere(file, arrived, ledger, o);
    return result(plan);
  } finally {
    ix.close();
  }
}

/** Put back (put-back.ts), saying so; one that fails is said and tried again when the writer next passes the threshold. */
async function putBackSaying(file: string, list: readonly HeldRecord[], o: ApplyOptions): Promise<HeldRecord[]> {
  try {
    const back = await putBack(file, list, o);
    if (back.length > 0)
      o.notice(`${back.length} forgets from ${back[0]!.name} that applied this week were put back to wait in review with the rest`);
    return back;
  } catch (err) {
    o.notice(`forgets that applied this week were not put back (${err instanceof Error ? err.message : String(err)})`);
    return [];
  }
}

/** Each writer's receipt also says how many of its records wait in review (a receipt of their own when none applied). */
function withHeld(drafts: ReceiptDraft[], waiting: readonly Waiting[]): ReceiptDraft[] {
  const out = [...drafts];
  for (const w of waiting) {
    const from = originOf({ via: w.name });
    let d = out.find((x) => x.from === from);
    if (!d) out.push((d = emptyDraft(from)));
    d.held = (d.held ?? 0) + w.n;
  }
  return out;
}

/** After the guards' own files: a receipt that cannot be written is said, and loses nothing else. */
async function recordReceipts(file: string, drafts: readonly ReceiptDraft[], o: ApplyOptions): Promise<void> {
  try {
    await new ReceiptFile(file, { notice: o.notice, ...(o.lock && { lock: o.lock }) }).record(drafts, o.now());
  } catch (err) {
    o.notice(
      `the receipt of what arrived was not recorded (${err instanceof Error ? err.message : String(err)}) — aish memory log will not show it`,
    );
  }
}

/** Receipts here whose undo on another machine just arrived (undone-elsewhere.ts): marked so, or said when they cannot be. */
async function markUndoneElsewhere(file: string, arrived: readonly WriterBatch[], ledger: Ledger, o: ApplyOptions): Promise<void> {
  try {
    const receipts = new ReceiptFile(file, { notice: o.notice, ...(o.lock && { lock: o.lock }) });
    await receipts.markUndoneElsewhere(undoneElsewhere(receipts.all(), arrived, ledger, o.known, o.now()));
  } catch (err) {
    o.notice(`receipts undone on another machine were not marked (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Per writer and reason; an edit counts once (its forget of the old item is part of it). */
function waitingOf(held: readonly HeldRecord[]): Waiting[] {
  const m = new Map<string, Waiting>();
  for (const h of held) {
    if (h.why === 'edit' && isMark(h.record)) continue;
    const k = `${h.why}\u0000${h.name}`;
    const w = m.get(k) ?? { name: h.name, why: h.why, n: 0 };
    w.n++;
    m.set(k, w);
  }
  return [...m.values()];
}

/** Uids replaced by a received item that two or more active items now replace. */
function conflictsAfter(plan: IncomingPlan, ledger: Ledger): number {
  let n = 0;
  for (const replaced of plan.replaced) {
    const active = ledger.replacers(replaced).filter((uid) => (ledger.itemOf(uid)?.id ?? 0) > 0 && !ledger.isForgotten(uid));
    if (active.length >= 2) n++;
  }
  return n;
}
