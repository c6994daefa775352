/**
 * `memory log` and `memory undo`: receipts (receipts.ts) listed newest first, and one undone — what it
 * forgot or replaced comes back as new items of this machine (a forget is final on every machine, so
 * the old uid stays forgotten; the new items travel like anything typed here), and what it added is
 * forgotten. Both are the store's own writes, so the next sync sends them: the other machines
 * forget the same arrivals and receive the restored items, and an old forget re-read from a writer's
 * file names only the old uids, never the new.
 */
import { AishError } from '../../util/errors';
import { plural } from '../../util/time';
import { shownField } from '../format';
import { uidOf } from '../log/identity';
import { originLabel, parseOrigin } from '../origin';
import { ReceiptFile, restoredUid, savedOptions, undonePinUid, undoneUid, type Receipt } from './receipts';
import type { MemoryStore } from '../store';
import { TeamDecisions } from '../team/team-decisions';

const SHOWN = 20;

export interface ReceiptView extends Receipt {
  undone?: string;
  /** Undone on another machine (its undo arrived by sync). */
  undone_elsewhere?: true;
}

export function listReceipts(file: ReceiptFile): ReceiptView[] {
  const r = file.all();
  return [...r.list].reverse().map((x) => {
    const at = r.undone.get(x.id);
    return at ? { ...x, undone: at, ...(r.elsewhere.has(x.id) && { undone_elsewhere: true as const }) } : x;
  });
}

function fromText(from: string): string {
  const o = parseOrigin(from);
  return shownField(o ? originLabel(o) || 'here' : from);
}

function pinCount(r: Receipt, on: boolean): number {
  return (r.pins ?? []).filter((p) => p[1] === on).length;
}

/** `r12  2026-12-06 07:45  from laptop — added 3, forgot 2  "text", "text"` lines, newest first. */
export function formatReceipts(list: readonly ReceiptView[], all = false): string[] {
  if (list.length === 0) return ['no changes arrived from elsewhere'];
  const lines = (all ? list : list.slice(0, SHOWN)).map((r) => {
    const counts = [
      r.added.length - r.replaced.length > 0 && `added ${r.added.length - r.replaced.length}`,
      r.forgot.length > 0 && `forgot ${r.forgot.length}`,
      r.replaced.length > 0 && `replaced ${r.replaced.length}`,
      pinCount(r, true) > 0 && `pinned ${pinCount(r, true)}`,
      pinCount(r, false) > 0 && `unpinned ${pinCount(r, false)}`,
      (r.held ?? 0) > 0 && `${r.held} wait in :memory review`,
    ].filter(Boolean);
    const saved = r.texts.length > 0 ? r.texts : r.saved.slice(0, 3).map((s) => s.content);
    const texts = saved.map((t) => `"${shownField(t.length > 60 ? `${t.slice(0, 59)}…` : t)}"`).join(', ');
    const when = r.at.slice(0, 16).replace('T', ' ');
    return `${r.id}  ${when}  ${fromText(r.from)} — ${counts.join(', ')}${texts ? `  ${texts}` : ''}${r.undone ? (r.undone_elsewhere ? '  (undone on another machine)' : '  (undone)') : ''}`;
  });
  if (!all && list.length > SHOWN) lines.push(`… ${plural(list.length - SHOWN, 'older receipt')} (--json lists them all)`);
  return lines;
}

/** Undo one receipt; the line that says what was done. */
export async function undoReceipt(store: MemoryStore, file: ReceiptFile, rawId: string | undefined, now: () => Date): Promise<string> {
  const id = (rawId ?? '').trim().toLowerCase();
  const r = /^r\d{1,9}$/.test(id) ? file.find(id) : undefined;
  if (!r) throw new AishError(`no receipt ${shownField(rawId ?? '')} — aish memory log (or :memory log) lists them`);
  if (r.added.length + r.saved.length + (r.pins?.length ?? 0) === 0)
    return `memory: nothing of ${r.id} applied here — what waits is accepted or dropped in :memory review`;
  let restored = 0;
  let forgotten = 0;
  let pins = 0;
  const done = await file.markUndone(id, now(), async () => {
    const added = new Set(r.added);
    const ids = store
      .items()
      .filter((it) => added.has(uidOf(it)))
      .map((it) => it.id);
    // Forgets under uids other machines recognise as this undo's (undone-elsewhere.ts).
    forgotten = (await store.forgetMany(ids, (it) => undoneUid(uidOf(it)))).length;
    // A teammate's item lives in the team file, not here: undoing its acceptance drops it.
    if (r.from.startsWith('team:')) forgotten += await TeamDecisions.open(store.path).revoke(r.added);
    for (const s of r.saved) {
      const opts = savedOptions(s, `undo:${r.id}`);
      // Under one uid on every machine: nothing twice, and nothing back that was forgotten since.
      if ((await store.addUnique(s.kind, s.content, opts, restoredUid(s.uid))).added) restored++;
    }
    pins = await undoPins(store, r.pins ?? []);
  });
  if (!done && file.all().elsewhere.has(r.id))
    return `memory: ${r.id} was already undone (on another machine) — nothing restored or forgotten`;
  if (!done) return `${r.id} was already undone (${file.all().undone.get(r.id)?.slice(0, 16).replace('T', ' ') ?? 'earlier'})`;
  if (restored + forgotten + pins === 0 && r.saved.length + r.added.length + (r.pins?.length ?? 0) > 0)
    return `memory: ${r.id} was already undone (on another machine) — nothing restored or forgotten`;
  const forgot = forgotten > 0 ? `, forgot ${plural(forgotten, 'item')} it added` : '';
  return `memory: undid ${r.id} — restored ${plural(restored, 'item')}${forgot}${pins > 0 ? `, put back ${plural(pins, 'pin')}` : ''}`;
}

/** Put each pin a receipt changed back as it was, where the item is still active and still as the receipt left it. */
async function undoPins(store: MemoryStore, pins: ReadonlyArray<readonly [string, boolean, string?]>): Promise<number> {
  let n = 0;
  for (const [uid, on, by] of pins) {
    const it = store.items().find((i) => uidOf(i) === uid);
    if (!it || store.isPinned(it) !== on) continue;
    // Under a uid other machines recognise as this undo's (undone-elsewhere.ts), when the receipt knows the pin record.
    if ((await store.setPinned(it.id, !on, by === undefined ? undefined : (hlc) => undonePinUid(by, hlc))).ok) n++;
  }
  return n;
}
