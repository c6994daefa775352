/** The records the store writes, and the shapes of its answers. */
import { fieldsFor, keptFields } from './field-codec';
import { originOf } from '../origin';
import type { FieldsWhere } from './fields';
import { basename } from 'node:path';
import { AishError } from '../../util/errors';
import { newIdentity, uidOf } from './identity';
import { MEMORY_FORMAT, type MemoryItem, type MemoryKind, type PinRecord, type SkippedLine, type Tombstone } from '../types';

/** A new item's optional fields (fields.ts: `add`); `replaces` is set by carriedOver. */
export type AddOptions = FieldsWhere<'add'>;

export type ForgetResult =
  { ok: true; tombstone: Tombstone; item: MemoryItem } | { ok: false; reason: 'unknown' | 'already-forgotten'; id: number };

export type PinResult =
  { ok: true; item: MemoryItem; changed: boolean } | { ok: false; reason: 'unknown' | 'already-forgotten'; id: number };

export type EditResult =
  { ok: true; item: MemoryItem; replaced: MemoryItem } | { ok: false; reason: 'unknown' | 'already-forgotten'; id: number };

export interface MemorySnapshot {
  items: MemoryItem[];
  skipped: SkippedLine[];
  maxId: number;
}

/** The first line of a new memory.jsonl. */
export function fileHeader(now: Date): string {
  return JSON.stringify({ meta: { format: MEMORY_FORMAT, version: 1, created: now.toISOString() } }) + '\n';
}

/**
 * Every record made here carries a fresh uid and hlc (identity.ts: loadIdentity() must have run),
 * right after its id: the text stays at the end of the line, inside the bytes FileCursor
 * fingerprints to notice an in-place hand edit.
 */
export function newItem(id: number, now: Date, kind: MemoryKind, content: string, opts: AddOptions): MemoryItem {
  return {
    id,
    ...newIdentity(now),
    ts: now.toISOString(),
    kind,
    content,
    ...fieldsFor('add', opts),
  };
}

/**
 * What an item replacing `old` keeps: its pin (and when it was pinned: `pinnedAt`, undefined when
 * not pinned), scope and privacy, and (an edit of the same text's subject: `edit`, the new text, or
 * true) its tags, keys and provenance too; a superseding item has its own provenance. `replaces`
 * names the old item on every machine, so two machines replacing one item show as a conflict.
 * An edit that keeps the text (new keys or tags, the same words re-typed) keeps where it came from:
 * the words are still the sender's, and only new words make an item the user's own.
 */
export function carriedOver(old: MemoryItem, pinnedAt: number | undefined, edit: boolean | string): AddOptions {
  const from = typeof edit === 'string' && sameItemKey(undefined, edit) === sameItemKey(undefined, old.content) ? originOf(old) : 'here';
  return { ...keptFields(old, pinnedAt, edit !== false), ...(from !== 'here' && { from }), replaces: uidOf(old) };
}

/** `targetUid`: the forgotten item's uid, which names it on every machine. */
export function newTombstone(now: Date, id: number, target: number, targetUid: string): Tombstone {
  return { id, ...newIdentity(now), ts: now.toISOString(), kind: 'forget', target, target_uid: targetUid };
}

/** `uidFor`: the record's uid made from its stamp instead of a fresh one (an undo's, receipts.ts's undonePinUid). */
export function newPin(id: number, now: Date, on: boolean, target: number, targetUid: string, uidFor?: (hlc: string) => string): PinRecord {
  const { uid, hlc } = newIdentity(now);
  return { id, uid: uidFor ? uidFor(hlc) : uid, hlc, ts: now.toISOString(), kind: on ? 'pin' : 'unpin', target, target_uid: targetUid };
}

/**
 * Equal for two items that say the same in the same scope: the texts differ only in white space
 * and case. What add and import call a duplicate.
 */
export function sameItemKey(scope: string | undefined, content: string): string {
  return `${scope ?? ''}\u0000${content.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/**
 * Refuse records whose id the parser would not read back (past 2^53 − 1): a hand-edited or
 * received line with an id, target or header maxId at the limit would otherwise make every new
 * record an unreadable line with the same id, reported as written. Nothing is written instead.
 */
export function assertIdsFit(file: string, records: readonly object[]): void {
  for (const r of records) {
    const id = (r as { id?: unknown }).id;
    if (typeof id === 'number' && !Number.isSafeInteger(id))
      throw new AishError(
        `${basename(file)} has no id left: a line of it names an id near ${Number.MAX_SAFE_INTEGER}, the largest aish can count to — lower that id in ${file} (a hand edit?) and try again; nothing was written`,
      );
  }
}
