/**
 * The records of a session log line by line: the header, turns, digest and rewind lines. Shared by the
 * loader, the listing's scan and search, so all three agree on what a line is.
 */
import { parseJsonLine } from '../util/line-warnings';
import { checkDigest, type SessionDigest } from './digest';
import { checkRewind, type RewindMark } from './rewind';
import type { Role, SessionMeta, ToolCallRecord, Turn } from './types';

const ROLES: ReadonlySet<string> = new Set<Role>(['system', 'user', 'assistant', 'tool']);

/** What one parsed line is; `bad` carries the reason shown in warnings. */
export type LogRecord =
  | { kind: 'header'; meta: SessionMeta }
  | { kind: 'turn'; turn: Turn }
  | { kind: 'digest'; digest: SessionDigest }
  | { kind: 'rewind'; rewind: RewindMark }
  | { kind: 'bad'; reason: string };

/** Fields in the order the writer uses, unknown ones dropped: a copied turn is byte-identical to a written one. */
export function orderTurn(t: Turn): Turn {
  return {
    ts: t.ts,
    role: t.role,
    content: t.content,
    ...(t.meta !== undefined && { meta: t.meta }),
    ...(t.tool_calls !== undefined && { tool_calls: t.tool_calls }),
    ...(t.tool_call_id !== undefined && { tool_call_id: t.tool_call_id }),
    ...(t.recall !== undefined && { recall: t.recall }),
    ...(t.typed !== undefined && { typed: t.typed }),
  };
}

/** A turn, or the reason the value is not one. Null content only for assistant turns, as the API allows. */
function checkTurn(v: unknown): Turn | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (typeof r.role !== 'string' || !ROLES.has(r.role)) return `unknown role ${JSON.stringify(r.role ?? null)}`;
  const role = r.role as Role;
  if (typeof r.ts !== 'string') return 'missing ts';
  if (!(typeof r.content === 'string' || (r.content === null && role === 'assistant')))
    return role === 'assistant' ? 'content must be a string or null' : `content must be a string for role ${role}`;
  if (r.meta !== undefined && typeof r.meta !== 'string') return 'meta must be a string';
  if (r.tool_calls !== undefined && !(Array.isArray(r.tool_calls) && r.tool_calls.every(isToolCall))) return 'malformed tool_calls';
  if (r.tool_call_id !== undefined && typeof r.tool_call_id !== 'string') return 'tool_call_id must be a string';
  if (role === 'tool' && r.tool_call_id === undefined) return 'tool turn without tool_call_id';
  if (r.recall !== undefined && !(Array.isArray(r.recall) && r.recall.every((id) => Number.isSafeInteger(id) && id >= 1)))
    return 'recall must be a list of memory ids';
  if (r.typed !== undefined && typeof r.typed !== 'string') return 'typed must be a string';
  return orderTurn(r as unknown as Turn);
}

function isToolCall(v: unknown): v is ToolCallRecord {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const f = c.function as Record<string, unknown> | null | undefined;
  return (
    typeof c.id === 'string' &&
    c.type === 'function' &&
    typeof f === 'object' &&
    f !== null &&
    typeof f.name === 'string' &&
    typeof f.arguments === 'string'
  );
}

export function parseJson(line: string): { ok: true; value: unknown } | { ok: false } {
  return parseJsonLine(line);
}

/** `{"meta":{…}}`'s object; a turn's `meta` is a string, so it never counts. */
function metaObject(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || !('meta' in v)) return undefined;
  const m = v.meta;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
}

/**
 * What a parsed line is. Only the first line can be the header; any later `{"meta":{…}}` line is
 * a digest or unknown, never a turn, so replay never sees it.
 */
export function classifyRecord(v: unknown, first: boolean): LogRecord {
  const meta = metaObject(v);
  if (meta && first) return { kind: 'header', meta: meta as SessionMeta };
  if (meta) {
    if ('rewind' in meta) {
      const rewind = checkRewind(meta.rewind);
      return typeof rewind === 'string' ? { kind: 'bad', reason: rewind } : { kind: 'rewind', rewind };
    }
    if (!('digest' in meta)) return { kind: 'bad', reason: 'unknown meta line' };
    const digest = checkDigest(meta.digest);
    return typeof digest === 'string' ? { kind: 'bad', reason: digest } : { kind: 'digest', digest };
  }
  const turn = checkTurn(v);
  return typeof turn === 'string' ? { kind: 'bad', reason: turn } : { kind: 'turn', turn };
}
