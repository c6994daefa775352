/**
 * Receipts undone on another machine: that machine's undo arrives as records (receipt-undo.ts) —
 * forgets of what the receipt added, under `undoneUid`, the items it forgot or replaced back under
 * `restoredUid`, and the pins it changed changed back under `undonePinUid` (of the pin record that
 * changed it, which the receipt names, and the undo's own stamp). A receipt here for the same
 * arrival is marked undone when this sync brings such a record for it and nothing it did is left in
 * effect: every item it added forgotten, every item it forgot or replaced back (or had and forgotten
 * since), every pin it changed changed back (or its item gone). A forget or pin by hand has a uid of
 * its own, so it never marks a receipt.
 */
import type { Receipt, Receipts } from '../receipts/receipts';
import { restoredUid, undonePinUid, undoneUid } from '../receipts/receipts';
import type { Ledger } from './ledger';
import type { WriterBatch } from './incoming';
import { isMark } from './wire';

/** The receipts to mark, with when their undo was written (not after `now`). */
export function undoneElsewhere(
  receipts: Receipts,
  arrived: readonly WriterBatch[],
  ledger: Ledger,
  known: ReadonlySet<string>,
  now: Date,
): Array<{ id: string; at: string }> {
  // What this sync brought: an undo's forgets by the uid they forget, items by uid (with their times).
  const forgets = new Map<string, string>();
  const items = new Map<string, string>();
  // Pin and unpin records by the item they pin (which of them are an undo's is known only from a receipt's pin record).
  const pins = new Map<string, Array<{ uid: string; hlc: string; ts: string }>>();
  for (const b of arrived)
    for (const r of b.records) {
      if (!isMark(r)) items.set(r.uid, r.ts);
      else if (r.kind === 'forget') {
        if (r.uid === undoneUid(r.target_uid)) forgets.set(r.target_uid, r.ts);
      } else pins.set(r.target_uid, [...(pins.get(r.target_uid) ?? []), { uid: r.uid, hlc: r.hlc, ts: r.ts }]);
    }
  if (forgets.size + items.size + pins.size === 0) return [];
  const pinUndo = (item: string, by: string): string | undefined =>
    (pins.get(item) ?? []).find((p) => p.uid === undonePinUid(by, p.hlc))?.ts;
  // A restored uid keeps the old uid's time part: only saved items with a time part that came are hashed.
  const times = new Set([...items.keys()].map((u) => u.slice(0, 10)));
  const has = (uid: string) => known.has(uid) || ledger.knows(uid);
  const out: Array<{ id: string; at: string }> = [];
  for (const r of receipts.list) {
    if (receipts.undone.has(r.id)) continue;
    const seen: string[] = [];
    for (const uid of r.added) {
      const t = forgets.get(uid);
      if (t !== undefined) seen.push(t);
    }
    for (const s of r.saved) {
      const t = times.has(s.uid.slice(0, 10)) ? items.get(restoredUid(s.uid)) : undefined;
      if (t !== undefined) seen.push(t);
    }
    for (const [item, , by] of r.pins ?? []) {
      const t = by === undefined ? undefined : pinUndo(item, by);
      if (t !== undefined) seen.push(t);
    }
    if (seen.length === 0 || !allBack(r, ledger, has)) continue;
    const latest = seen.reduce((a, b) => (a > b ? a : b));
    out.push({ id: r.id, at: latest < now.toISOString() ? latest : now.toISOString() });
  }
  return out;
}

function allBack(r: Receipt, ledger: Ledger, has: (uid: string) => boolean): boolean {
  return (
    r.added.every((uid) => ledger.isForgotten(uid)) &&
    r.saved.every((s) => has(restoredUid(s.uid))) &&
    (r.pins ?? []).every(([uid, on]) => ledger.isForgotten(uid) || ledger.pinOf(uid)?.on === !on)
  );
}
