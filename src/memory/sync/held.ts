/**
 * sync/held.jsonl (0600): received records the guards (guard.ts) keep out of memory.jsonl until the
 * user accepts them in review. The ledger never learnt them, so accepting applies them exactly as a
 * sync would have; dropping removes them. Changed only under the sync lock.
 */
import { closeSync, openSync } from 'node:fs';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { appendWholeLines } from '../../util/fs-safe';
import { readTextIfExists } from '../../util/read-text';
import type { HeldRecord, HeldWhy } from './guard';
import { parseWireLine } from './wire';

const WHY: readonly HeldWhy[] = ['forgets', 'edit', 'flood', 'unpins'];

export function readHeld(path: string): HeldRecord[] {
  const out: HeldRecord[] = [];
  for (const line of readTextIfExists(path).split('\n')) {
    if (!line) continue;
    try {
      const v = JSON.parse(line) as Partial<HeldRecord>;
      const parsed = parseWireLine(JSON.stringify(v.record));
      if (typeof v.writer !== 'string' || typeof v.name !== 'string' || !WHY.includes(v.why as HeldWhy) || !('record' in parsed)) continue;
      out.push({
        writer: v.writer,
        name: v.name,
        why: v.why as HeldWhy,
        record: parsed.record,
        ...(v.restored === true && { restored: true }),
      });
    } catch {
      // A torn last line (a crash mid-append): skipped; the rest of the file still counts.
    }
  }
  return out;
}

/** Append what is not held already (a writer file read again from its start holds nothing twice). */
export function holdMore(path: string, more: readonly HeldRecord[], already: readonly HeldRecord[]): void {
  const have = new Set(already.map((h) => h.record.uid));
  const text = more
    .filter((h) => !have.has(h.record.uid) && (have.add(h.record.uid), true))
    .map((h) => JSON.stringify(h) + '\n')
    .join('');
  if (!text) return;
  const fd = openSync(path, 'a+', 0o600);
  try {
    appendWholeLines(fd, text);
  } finally {
    closeSync(fd);
  }
}

export function rewriteHeld(path: string, list: readonly HeldRecord[]): void {
  writeFileAtomicSync(path, list.map((h) => JSON.stringify(h) + '\n').join(''), { mode: 0o600 });
}

/** A group the review asks about as one: a writer's held forgets, its unpins, its flood, or one edit. */
export interface HeldGroup {
  key: string;
  why: HeldWhy;
  writer: string;
  name: string;
  records: HeldRecord[];
  /** For an edit: the uid of the item written here it replaces. */
  replaces?: string;
}

export function groupHeld(list: readonly HeldRecord[]): HeldGroup[] {
  const groups = new Map<string, HeldGroup>();
  for (const h of list) {
    const r = h.record;
    const target = h.why === 'edit' ? ('replaces' in r && r.replaces ? r.replaces : 'target_uid' in r ? r.target_uid : '') : '';
    const key = h.why === 'edit' ? `edit:${target}` : `${h.why}:${h.writer}`;
    const g = groups.get(key) ?? { key, why: h.why, writer: h.writer, name: h.name, records: [], ...(target && { replaces: target }) };
    g.records.push(h);
    // An edit is named by who wrote the new text, not by who forgot the old one.
    if (h.why === 'edit' && !('target_uid' in r)) Object.assign(g, { writer: h.writer, name: h.name });
    groups.set(key, g);
  }
  return [...groups.values()];
}
