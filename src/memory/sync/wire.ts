/**
 * Records as they travel in `writers/<id>.jsonl`: what memory.jsonl holds minus the local handles
 * (`id`, `target`), named by uid instead (docs/memory-sync.md). A received record gets a local id
 * again, and `via`: the writer it came from, which also tells the next sync not to send it back.
 */
import { formatStamp } from '../log/hlc';
import { uidOf } from '../log/identity';
import { isoTime } from '../log/parse';
import { isScope } from '../scope-format';
import { isMemoryKind, type MemoryItem, type MemoryKind, type PinRecord, type Tombstone } from '../types';

export const SYNC_FORMAT = 'aish-memory-sync';

export interface WireItem {
  uid: string;
  hlc: string;
  ts: string;
  kind: MemoryKind;
  content: string;
  tags?: string[];
  keys?: string[];
  source?: string;
  scope?: string;
  pinned?: boolean;
  /** When a pinned item was pinned (pinned items overflowing [background] keep the latest). */
  pinned_at?: string;
  replaces?: string;
}

export interface WireMark {
  uid: string;
  hlc: string;
  ts: string;
  kind: 'forget' | 'pin' | 'unpin';
  target_uid: string;
}

export type WireRecord = WireItem | WireMark;

export const isMark = (r: WireRecord): r is WireMark => r.kind === 'forget' || r.kind === 'pin' || r.kind === 'unpin';

/** A record's stamp: its own, or (written before stamps) one made from its time. */
function stampOf(r: { hlc?: string; ts: string }): string {
  if (typeof r.hlc === 'string' && /^\d{13}-\d{4}$/.test(r.hlc)) return r.hlc;
  const t = isoTime(r.ts);
  return formatStamp(Number.isFinite(t) && t > 0 ? Math.min(t, 9_999_999_999_999) : 0, 0);
}

/** An item as it is sent, with `scope` already made machine-independent by the caller. */
export function wireItem(it: MemoryItem & { replaces?: string }, scope: string | undefined): WireItem {
  return {
    uid: uidOf(it),
    hlc: stampOf(it),
    ts: it.ts,
    kind: it.kind,
    content: it.content,
    ...(it.tags && it.tags.length > 0 && { tags: it.tags }),
    ...(it.keys && it.keys.length > 0 && { keys: it.keys }),
    ...(it.source && { source: it.source }),
    ...(scope && { scope }),
    ...(it.pinned === true && { pinned: true }),
    ...(it.pinned === true && typeof it.pinned_at === 'string' && { pinned_at: it.pinned_at }),
    ...(typeof it.replaces === 'string' && { replaces: it.replaces }),
  };
}

export function wireMark(r: Tombstone | PinRecord, targetUid: string): WireMark {
  return { uid: uidOf(r), hlc: stampOf(r), ts: r.ts, kind: r.kind, target_uid: targetUid };
}

const UID = /^[0-9A-Za-z]{10,40}$/;
const isStr = (v: unknown): v is string => typeof v === 'string';

/** One line of a writer file: a record, the header's writer name, or why it cannot be used. */
export function parseWireLine(line: string): { record: WireRecord } | { name: string } | { bad: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { bad: 'not valid JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { bad: 'not a JSON object' };
  const o = v as Record<string, unknown>;
  if ('meta' in o) {
    const meta = o.meta as Record<string, unknown> | null;
    return { name: meta && isStr(meta.name) ? meta.name.slice(0, 60) : '' };
  }
  if (!isStr(o.uid) || !UID.test(o.uid)) return { bad: 'no valid uid' };
  if (!isStr(o.ts) || Number.isNaN(isoTime(o.ts))) return { bad: 'no valid ts' };
  const hlc = stampOf({ hlc: isStr(o.hlc) ? o.hlc : undefined, ts: o.ts });
  if (o.kind === 'forget' || o.kind === 'pin' || o.kind === 'unpin') {
    if (!isStr(o.target_uid) || !UID.test(o.target_uid)) return { bad: `${o.kind} without a valid target_uid` };
    return { record: { uid: o.uid, hlc, ts: o.ts, kind: o.kind, target_uid: o.target_uid } };
  }
  if (!isMemoryKind(o.kind)) return { bad: 'unknown kind' };
  if (!isStr(o.content) || !o.content.trim()) return { bad: 'no content' };
  if (o.scope !== undefined && (!isScope(o.scope) || !/^(git|id):/.test(o.scope))) return { bad: 'scope is not a project identity' };
  const tags = Array.isArray(o.tags) && o.tags.every(isStr) ? o.tags : undefined;
  const keys = Array.isArray(o.keys) && o.keys.every(isStr) ? o.keys : undefined;
  return {
    record: asWritten(o, {
      uid: o.uid,
      hlc,
      ts: o.ts,
      kind: o.kind,
      content: o.content,
      ...(tags && tags.length > 0 && { tags }),
      ...(keys && keys.length > 0 && { keys }),
      ...(isStr(o.source) && { source: o.source }),
      ...(isStr(o.scope) && { scope: o.scope }),
      ...(o.pinned === true && { pinned: true }),
      ...(o.pinned === true && isStr(o.pinned_at) && !Number.isNaN(isoTime(o.pinned_at)) && { pinned_at: o.pinned_at }),
      ...(isStr(o.replaces) && UID.test(o.replaces) && { replaces: o.replaces }),
    }),
  };
}

/**
 * `record`'s fields in the order the line had them (a received item is written to memory.jsonl as
 * it was sent); a stamp made from `ts` (the line had none) goes after the uid.
 */
function asWritten<T extends object>(line: Record<string, unknown>, record: T): T {
  const fields = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(line)) {
    if (Object.hasOwn(fields, k)) out[k] = fields[k];
    if (k === 'uid' && !('hlc' in line)) out.hlc = fields.hlc;
  }
  for (const k of Object.keys(fields)) if (!Object.hasOwn(out, k)) out[k] = fields[k];
  return out as T;
}
