/** memory.jsonl's records (docs/memory.md has the format). */

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

export interface MemoryItem {
  id: number;
  ts: string;
  kind: MemoryKind;
  content: string;
  tags?: string[];
  /** A few search words recall indexes beside the content (by hand, `:memory edit ID (keys: …)`, or proposed by the summarizer). */
  keys?: string[];
  /** Provenance, e.g. the session id an item was extracted from. */
  source?: string;
  /** Always leads [background] (a hand edit may set it; `:memory pin` writes a pin record instead). */
  pinned?: boolean;
  /** When `pinned: true` was set (compaction keeps a folded pin record's time here); absent: `ts`. */
  pinned_at?: string;
  /** A project item: used only when aish's directory is inside this directory (absolute, or ~/…). */
  scope?: string;
  /** Stable identity (identity.ts); missing on records written before it existed. */
  uid?: string;
  /** Hybrid logical clock stamp (hlc.ts). */
  hlc?: string;
  /** Never leaves this machine (sync skips it). */
  private?: boolean;
  /** The uid of the item this one replaced (an edit or supersede); two active items replacing one are a conflict. */
  replaces?: string;
  /** Where it came from (origin.ts has the grammar); absent: here. */
  from?: string;
  /** Set by sync on a received record: the name of the writer it came from. */
  via?: string;
  /** When the user kept it as it is in `:memory review --stale` (review/stale.ts): not stale for 90 days from then. */
  confirmed?: string;
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
