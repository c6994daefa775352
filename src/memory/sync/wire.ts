/**
 * Records as they travel in `writers/<id>.jsonl`: what memory.jsonl holds minus the local handles
 * (`id`, `target`), named by uid instead (docs/memory-sync.md). A received record gets a local id
 * again, and `via`: the writer it came from, which also tells the next sync not to send it back.
 */
import { formatStamp } from '../log/hlc';
import { uidOf } from '../log/identity';
import { isoTime } from '../log/parse';
import { fieldsFor, receivedFields } from '../log/field-codec';
import type { FieldsWhere } from '../log/fields';
import { originOf } from '../origin';
import { isMemoryKind, type MemoryItem, type MemoryKind, type PinRecord, type Tombstone } from '../types';

export const SYNC_FORMAT = 'aish-memory-sync';

/** An item as it is sent: its identity, time, kind and text, then the fields fields.ts sends (`wire`). */
export type WireItem = { uid: string; hlc: string; ts: string; kind: MemoryKind; content: string } & FieldsWhere<'wire'>;

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
export function wireItem(it: MemoryItem, scope: string | undefined): WireItem {
  return {
    uid: uidOf(it),
    hlc: stampOf(it),
    ts: it.ts,
    kind: it.kind,
    content: it.content,
    ...(fieldsFor('wire', it, { scope, from: originOf(it) }) as FieldsWhere<'wire'>),
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
  // Undeclared fields, and declared ones of the wrong type, are left out.
  const fields = receivedFields('wire', o);
  if ('bad' in fields) return fields;
  return { record: asWritten(o, { uid: o.uid, hlc, ts: o.ts, kind: o.kind, content: o.content, ...fields.fields }) };
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
