/**
 * The receipts of one sync's written records (receipts.ts): one per writer, naming what its records
 * added, forgot, replaced and pinned or unpinned here. Built under the memory lock, before the records are written, so the
 * items they forget are still readable from the index and saved as they were.
 */
import { originOf } from '../origin';
import { emptyDraft, noteAdded, savedItem, type ReceiptDraft } from '../receipts/receipts';
import type { MemoryItem } from '../types';

interface ItemView {
  get(id: number): MemoryItem | undefined;
  isPinned(item: MemoryItem): boolean;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function receiptsOf(records: readonly Record<string, unknown>[], ix: ItemView): ReceiptDraft[] {
  const byWriter = new Map<string, ReceiptDraft>();
  const draft = (via: string): ReceiptDraft => {
    const from = originOf({ via });
    const d = byWriter.get(from) ?? emptyDraft(from);
    byWriter.set(from, d);
    return d;
  };
  const replacedBy = new Map<string, string>();
  // A pin decision per item, the last one in the batch: the receipt names it when it changed the item's pin here.
  const pins = new Map<string, { d: ReceiptDraft; on: boolean; it: MemoryItem; by: string }>();
  for (const r of records) {
    const uid = str(r.uid);
    const old = str(r.replaces);
    if (uid && old && r.kind !== 'forget' && r.kind !== 'pin' && r.kind !== 'unpin') replacedBy.set(old, uid);
  }
  for (const r of records) {
    const d = draft(str(r.via) ?? '');
    const uid = str(r.uid);
    if (!uid) continue;
    if (r.kind === 'forget') {
      const target = str(r.target_uid);
      const it = typeof r.target === 'number' ? ix.get(r.target) : undefined;
      if (!target) continue;
      if (it) d.saved.push(savedItem(it, target, ix.isPinned(it)));
      const by = replacedBy.get(target);
      if (by) d.replaced.push([target, by]);
      else d.forgot.push(target);
    } else if (r.kind === 'pin' || r.kind === 'unpin') {
      const target = str(r.target_uid);
      // An item received in this same sync is not in the index yet: its pin is part of its arrival.
      const it = typeof r.target === 'number' ? ix.get(r.target) : undefined;
      if (target && it) pins.set(target, { d, on: r.kind === 'pin', it, by: uid });
    } else {
      noteAdded(d, uid, str(r.content) ?? '');
    }
  }
  for (const [uid, { d, on, it, by }] of pins) {
    if (ix.isPinned(it) === on) continue;
    // The record's uid, the same on every machine: an undo anywhere names it (undone-elsewhere.ts).
    (d.pins ??= []).push([uid, on, by]);
    if (d.texts.length < 3) d.texts.push(it.content.slice(0, 200));
  }
  return [...byWriter.values()];
}
