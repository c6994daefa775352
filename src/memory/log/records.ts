/** The records the store writes, and the shapes of its answers. */
import { newIdentity, uidOf } from './identity';
import { MEMORY_FORMAT, type MemoryItem, type MemoryKind, type PinRecord, type SkippedLine, type Tombstone } from '../types';

export interface AddOptions {
  tags?: string[];
  /** Search words recall indexes beside the text. */
  keys?: string[];
  source?: string;
  /** A project item's directory (see project.ts). */
  scope?: string;
  /** Carried over by edit, so an edited pinned item stays pinned … */
  pinned?: boolean;
  /** … and keeps its place among the pinned (pin-time.ts). */
  pinned_at?: string;
  /** Never synced; carried over by edit and supersede. */
  private?: boolean;
  /** The uid of the item this one replaces (set by carriedOver). */
  replaces?: string;
  /** Where the item came from when not here (origin.ts): an import, a teammate, an agent. */
  from?: string;
  /** Kept as it is in a stale review (review/stale.ts): the time of that say-so. */
  confirmed?: string;
}

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
    ...(opts.tags && opts.tags.length > 0 && { tags: opts.tags }),
    ...(opts.keys && opts.keys.length > 0 && { keys: opts.keys }),
    ...(opts.source && { source: opts.source }),
    ...(opts.scope && { scope: opts.scope }),
    ...(opts.pinned && { pinned: true }),
    ...(opts.pinned && opts.pinned_at && { pinned_at: opts.pinned_at }),
    ...(opts.private && { private: true }),
    ...(opts.replaces && { replaces: opts.replaces }),
    ...(opts.from && opts.from !== 'here' && { from: opts.from }),
    ...(opts.confirmed && { confirmed: opts.confirmed }),
  };
}

/**
 * What an item replacing `old` keeps: its pin (and when it was pinned: `pinnedAt`, undefined when
 * not pinned), scope and privacy, and (an edit of the same text's subject) its tags, keys and
 * provenance too; a superseding item has its own provenance. `replaces`
 * names the old item on every machine, so two machines replacing one item show as a conflict.
 */
export function carriedOver(old: MemoryItem, pinnedAt: number | undefined, provenance: boolean): AddOptions {
  return {
    ...(provenance && old.tags && { tags: old.tags }),
    ...(provenance && old.keys && { keys: old.keys }),
    ...(provenance && old.source && { source: old.source }),
    ...(old.scope && { scope: old.scope }),
    ...(pinnedAt !== undefined && { pinned: true, pinned_at: new Date(pinnedAt).toISOString() }),
    ...(old.private && { private: true }),
    replaces: uidOf(old),
  };
}

/** `targetUid`: the forgotten item's uid, which names it on every machine. */
export function newTombstone(now: Date, id: number, target: number, targetUid: string): Tombstone {
  return { id, ...newIdentity(now), ts: now.toISOString(), kind: 'forget', target, target_uid: targetUid };
}

export function newPin(id: number, now: Date, on: boolean, target: number, targetUid: string): PinRecord {
  return { id, ...newIdentity(now), ts: now.toISOString(), kind: on ? 'pin' : 'unpin', target, target_uid: targetUid };
}

/**
 * Equal for two items that say the same in the same scope: the texts differ only in white space
 * and case. What add and import call a duplicate.
 */
export function sameItemKey(scope: string | undefined, content: string): string {
  return `${scope ?? ''}\u0000${content.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}
