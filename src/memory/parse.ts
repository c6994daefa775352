/**
 * Line parser for memory.jsonl. JSON.parse first (fast path), JSON5 only as a fallback for hand
 * edits (NOTES.md: JSON5 on every line is ~20x slower). Every field is validated; anything unusable
 * becomes a 'bad' entry with its line number and a reason. Never throws.
 */
import JSON5 from 'json5';
import { isMemoryKind, type Entry, type MemoryItem } from './types';

const MAX_SPAN_LINES = 200;
const MAX_SPAN_CHARS = 64 * 1024;

export interface ParseResult {
  entries: Entry[];
}

/**
 * Parse `text` whose first line is line number `firstLine`. `endsWithNewline` tells whether the
 * final line is complete; an unparseable incomplete final line is reported as a torn write.
 */
export function parseLines(text: string, firstLine: number, endsWithNewline: boolean): Entry[] {
  const lines = text.split('\n');
  if (endsWithNewline && lines[lines.length - 1] === '') lines.pop();
  const last = lines.length - 1;
  const out: Entry[] = [];

  for (let i = 0; i < lines.length; i++) {
    let raw = lines[i]!;
    if (raw.charCodeAt(raw.length - 1) === 13) raw = raw.slice(0, -1); // CRLF from Windows editors
    if (i === 0 && firstLine === 1 && raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1); // BOM
    const lineNo = firstLine + i;
    const t = raw.trim();
    if (t === '' || t.startsWith('//') || t.startsWith('#')) continue; // blank lines and comment lines are fine

    const one = parseValue(t);
    if (one.ok) {
      out.push(toEntry(one.value, lineNo, undefined, raw, one.json5));
      continue;
    }

    // A pretty-printed object spread over several lines (a hand edit): join until it parses.
    if (t.startsWith('{')) {
      const span = tryMultiLine(lines, i);
      if (span) {
        out.push(toEntry(span.value, lineNo, firstLine + span.end, span.text, true));
        i = span.end;
        continue;
      }
    }

    const torn = i === last && !endsWithNewline;
    out.push({
      type: 'bad',
      line: lineNo,
      reason: torn ? 'incomplete last line (an interrupted write?)' : `not valid JSON or JSON5 (${one.error})`,
      raw,
      ...reservedIdOf(t),
    });
  }
  return out;
}

type Parsed = { ok: true; value: unknown; json5: boolean } | { ok: false; error: string };

function parseValue(t: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(t), json5: false };
  } catch {
    try {
      return { ok: true, value: JSON5.parse(t), json5: true };
    } catch (err) {
      return { ok: false, error: shortJson5Error(err) };
    }
  }
}

function shortJson5Error(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.replace(/^JSON5: /, '').replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?').slice(0, 80);
}

function tryMultiLine(lines: string[], start: number): { value: unknown; end: number; text: string } | undefined {
  let acc = lines[start]!;
  const limit = Math.min(lines.length, start + MAX_SPAN_LINES);
  for (let j = start + 1; j < limit; j++) {
    const next = lines[j]!;
    const nt = next.trim();
    // The next standalone record begins: the object we were collecting is broken.
    if (nt.startsWith('{') && parseValue(nt).ok) return undefined;
    acc += '\n' + next;
    if (acc.length > MAX_SPAN_CHARS) return undefined;
    if (!nt.endsWith('}') && !nt.endsWith('},')) continue; // cheap prefilter before a JSON5 attempt
    try {
      return { value: JSON5.parse(acc.trim().replace(/,$/, '')), end: j, text: acc };
    } catch {
      // keep collecting
    }
  }
  return undefined;
}

/** A broken line that still shows an id keeps that id reserved, so it is never handed out again. */
function reservedIdOf(t: string): { reservedId?: number } {
  const m = /^\{\s*["']?id["']?\s*:\s*(\d{1,15})\b/.exec(t);
  if (!m) return {};
  const id = Number(m[1]);
  return Number.isSafeInteger(id) && id >= 1 ? { reservedId: id } : {};
}

// JSON5 accepts hex, NaN, Infinity and leading dots as numbers; ids written that way are a hand-edit
// mistake we should report, not silently reinterpret.
const ODD_NUMBER_RE = /(^|[{,])\s*["']?(id|target)["']?\s*:\s*[+-]?(0x|Infinity|NaN|\.)/i;

function toEntry(v: unknown, line: number, endLine: number | undefined, raw: string, json5: boolean): Entry {
  const span = endLine !== undefined && endLine !== line ? { endLine } : {};
  const bad = (reason: string, reservedId?: number): Entry => ({
    type: 'bad',
    line,
    ...span,
    reason,
    raw,
    ...(reservedId !== undefined && { reservedId }),
  });

  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('not a JSON object');
  const o = v as Record<string, unknown>;

  if (!('id' in o) && 'meta' in o) {
    const meta = o.meta;
    const maxId = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).maxId : undefined;
    return { type: 'header', line, ...span, ...(isId(maxId) && { maxId }) };
  }

  if (json5 && ODD_NUMBER_RE.test(raw)) return bad('id and target must be plain decimal integers (not hex, NaN or Infinity)');
  if (!('id' in o)) return bad('missing id');
  if (!isId(o.id)) return bad(`id must be a positive integer (got ${show(o.id)})`);
  const id = o.id;

  const time = typeof o.ts === 'string' ? Date.parse(o.ts) : NaN;
  if (Number.isNaN(time)) return bad(`ts must be an ISO-8601 time (got ${show(o.ts)})`, id);

  if (o.kind === 'forget') {
    if (!isId(o.target)) return bad(`forget needs a target id (got ${show(o.target)})`, id);
    return { type: 'forget', line, ...span, tomb: { id, ts: o.ts as string, kind: 'forget', target: o.target } };
  }
  if (!isMemoryKind(o.kind)) {
    return bad(`unknown kind ${show(o.kind)} (expected fact, pref, context or forget)`, id);
  }
  if (typeof o.content !== 'string' || o.content.trim() === '') {
    return bad(`content must be non-empty text (got ${show(o.content)})`, id);
  }
  if (o.tags !== undefined && (!Array.isArray(o.tags) || o.tags.some((t) => typeof t !== 'string'))) {
    return bad('tags must be a list of strings', id);
  }
  if (o.source !== undefined && typeof o.source !== 'string') return bad('source must be a string', id);
  return { type: 'item', line, ...span, item: o as unknown as MemoryItem, time };
}

function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (typeof v === 'number') return String(v);
  if (v === null) return 'null';
  return Array.isArray(v) ? 'a list' : typeof v;
}
