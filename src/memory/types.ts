/** memory.jsonl's records (docs/memory.md has the format). */
import type { ItemFields } from './log/fields';

/** `meta.format` in the header line. */
export const MEMORY_FORMAT = 'aish-memory';

export const MEMORY_KINDS = ['fact', 'pref', 'context'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export function isMemoryKind(k: unknown): k is MemoryKind {
  return typeof k === 'string' && (MEMORY_KINDS as readonly string[]).includes(k);
}

/** A memory id as typed by a user ("12"), or undefined when it is not a whole number ≥ 1. */
export function parseMemoryId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 ? id : undefined;
}

/** An item: these, then its optional fields (log/fields.ts declares them). */
export interface MemoryItem extends ItemFields {
  id: number;
  /** Stable identity (identity.ts); missing on records written before it existed. */
  uid?: string;
  /** Hybrid logical clock stamp (hlc.ts). */
  hlc?: string;
  ts: string;
  kind: MemoryKind;
  content: string;
}

export interface Tombstone {
  id: number;
  ts: string;
  kind: 'forget';
  target: number;
  /** The target's uid, the same on every machine (target is a local id). */
  target_uid?: string;
  uid?: string;
  hlc?: string;
}

/** `:memory pin` / `unpin`: the record with the highest id for a target decides. */
export interface PinRecord {
  id: number;
  ts: string;
  kind: 'pin' | 'unpin';
  target: number;
  target_uid?: string;
  uid?: string;
  hlc?: string;
}

/** A line that could not be used; reported, never silently dropped. */
export interface SkippedLine {
  line: number;
  /** Last line of a multi-line span, when the bad text spanned several lines. */
  endLine?: number;
  reason: string;
  /** The line is used (and kept byte for byte) all the same; it is only reported (invalid UTF-8). */
  kept?: true;
}

/** Reported lines that were not used (lines kept as is, with invalid UTF-8, do not count). */
export function unreadableCount(skipped: readonly SkippedLine[]): number {
  let n = 0;
  for (const s of skipped) if (!s.kept) n++;
  return n;
}

/** One parsed unit of the file: usually one line, sometimes a pretty-printed multi-line object. */
export type Entry =
  | { type: 'item'; line: number; endLine?: number; item: MemoryItem; time: number }
  | { type: 'forget'; line: number; endLine?: number; tomb: Tombstone }
  | { type: 'pin'; line: number; endLine?: number; pin: PinRecord }
  | { type: 'header'; line: number; endLine?: number; maxId?: number }
  | { type: 'bad'; line: number; endLine?: number; reason: string; reservedId?: number; raw: string };
