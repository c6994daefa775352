/**
 * Putting back forgets that applied (guard.ts): when a writer's forgets of items written here pass
 * the threshold over the window, the ones that applied earlier in the window come back — each item
 * as its receipt saved it (receipts.ts), under the uid an undo would give it (`restoredUid`), so an
 * undo of the same receipt later, here or on another machine, adds nothing twice — and wait in
 * review with the rest. Accepting forgets the restored items as the user's own change (it syncs);
 * dropping keeps them. Restored items are the store's own writes: the next sync sends them, so the
 * other machines, which applied the same forgets, have them again too.
 */
import { originOf } from '../origin';
import { ReceiptFile, recordArrival, restoredUid, savedOptions, type SavedItem } from '../receipts/receipts';
import { MemoryStore } from '../store';
import { uidOf } from '../log/identity';
import type { WriteOptions } from '../log/write';
import type { HeldRecord } from './guard';
import { isMark } from './wire';

type StoreOptions = Pick<WriteOptions, 'lock' | 'notice' | 'now'>;

/** Restore what `applied` forgot; the held records for review (those whose item could not be found in a receipt are left as they are). */
export async function putBack(file: string, applied: readonly HeldRecord[], o: StoreOptions): Promise<HeldRecord[]> {
  if (applied.length === 0) return [];
  const saved = new Map<string, SavedItem>();
  for (const r of new ReceiptFile(file, { notice: o.notice, ...(o.lock && { lock: o.lock }) }).all().list)
    for (const s of r.saved) saved.set(s.uid, s);
  const store = MemoryStore.open(file, { notice: o.notice, now: o.now, ...(o.lock && { lock: o.lock }) });
  const out: HeldRecord[] = [];
  try {
    for (const h of applied) {
      if (!isMark(h.record)) continue;
      const target = h.record.target_uid;
      const s = saved.get(target);
      if (!s) continue;
      const uid = restoredUid(target);
      const opts = savedOptions(s, `held:${h.name}`);
      const { item } = await store.addUnique(s.kind, s.content, opts, uid);
      // Forgotten since (by the user, or undone and forgotten again): nothing to hold.
      if (uidOf(item) !== uid || !store.get(item.id)) continue;
      out.push({ ...h, record: { ...h.record, target_uid: uid }, restored: true });
    }
  } finally {
    store.close();
  }
  return out;
}

/** Accepting put-back forgets: the restored items forgotten here (a receipt from their writer), as the user's own change. */
export async function forgetPutBack(file: string, held: readonly HeldRecord[], o: StoreOptions): Promise<void> {
  const uids = new Set(held.flatMap((h) => ('target_uid' in h.record ? [h.record.target_uid] : [])));
  if (uids.size === 0) return;
  const store = MemoryStore.open(file, { notice: o.notice, now: o.now, ...(o.lock && { lock: o.lock }) });
  try {
    const items = store.items().filter((it) => uids.has(uidOf(it)));
    const pinned = new Set(items.filter((it) => store.isPinned(it)).map((it) => it.id));
    const gone = await store.forgetMany(items.map((it) => it.id));
    const from = originOf({ via: held[0]!.name });
    await recordArrival(
      file,
      from,
      { forgot: gone },
      (it) => pinned.has(it.id),
      { notice: o.notice, ...(o.lock && { lock: o.lock }) },
      o.now(),
    );
  } finally {
    store.close();
  }
}
