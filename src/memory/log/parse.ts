/**
 * Line parser for memory.jsonl. JSON.parse first (fast path), JSON5 only as a fallback for hand
 * edits (JSON5 on every line measured ~20x slower). Every field is validated; anything unusable
 * becomes a 'bad' entry with its line number and a reason. Never throws.
 */
import { isMemoryKind, type Entry, type MemoryItem, type PinRecord, type Tombstone } from '../types';
import { fieldProblem, show } from './field-checks';
import { parseValue, tryMultiLine, type SpanWork } from './parse-value';

/** Receives parsed records directly, so loading 100k items allocates nothing per line beyond the item. */
export interface EntrySink {
  item(item: MemoryItem, time: number, line: number, endLine: number | undefined): void;
  forget(tomb: Tombstone, line: number, endLine: number | undefined): void;
  pin(pin: PinRecord, line: number, endLine: number | undefined): void;
  header(maxId: number | undefined, line: number): void;
  bad(line: number, endLine: number | undefined, reason: string, raw: string, reservedId: number | undefined): void;
}

/**
 * Parse `text` whose first line is line number `firstLine`. `endsWithNewline` tells whether the
 * final line is complete; an unparseable incomplete final line is reported as a torn write.
 */
export function parseLines(text: string, firstLine: number, endsWithNewline: boolean): Entry[] {
  const out: Entry[] = [];
  const span = (endLine: number | undefined) => (endLine !== undefined ? { endLine } : {});
  parseInto(text, firstLine, endsWithNewline, {
    item: (item, time, line, endLine) => out.push({ type: 'item', line, ...span(endLine), item, time }),
    forget: (tomb, line, endLine) => out.push({ type: 'forget', line, ...span(endLine), tomb }),
    pin: (pin, line, endLine) => out.push({ type: 'pin', line, ...span(endLine), pin }),
    header: (maxId, line) => out.push({ type: 'header', line, ...(maxId !== undefined && { maxId }) }),
    bad: (line, endLine, reason, raw, reservedId) =>
      out.push({ type: 'bad', line, ...span(endLine), reason, raw, ...(reservedId !== undefined && { reservedId }) }),
  });
  return out;
}

/**
 * Parse `text` into `sink`. With `holdOpenTail`, a pretty-printed object that is still open at the
 * end of the text (its closing brace not written yet, or not read yet) is not reported as broken
 * lines: parsing stops there and the character offset of its first line is returned, for the
 * caller to parse again with what follows. Otherwise returns null.
 */
export function parseInto(text: string, firstLine: number, endsWithNewline: boolean, sink: EntrySink, holdOpenTail = false): number | null {
  // A line that does not parse throws: without a stack to capture each time, a file of a million
  // bad lines reads in a second instead of a minute (nothing here throws otherwise).
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parseAll(text, firstLine, endsWithNewline, sink, holdOpenTail);
  } finally {
    Error.stackTraceLimit = depth;
  }
}

function parseAll(text: string, firstLine: number, endsWithNewline: boolean, sink: EntrySink, holdOpenTail = false): number | null {
  const lines = text.split('\n');
  if (endsWithNewline && lines[lines.length - 1] === '') lines.pop();
  const last = lines.length - 1;
  let pos = 0; // character offset of line i
  // Hand-written objects are a few lines: the attempts may look at four times the text (and 1M characters) in all.
  const work: SpanWork = { standalone: null, budget: 4 * text.length + 1_000_000 };

  for (let i = 0; i < lines.length; pos += lines[i]!.length + 1, i++) {
    let raw = lines[i]!;
    const fast = raw;
    // Fast path: a line as aish writes it. JSON.parse alone, no trimming or copying.
    if (raw.charCodeAt(0) === 123 /* { */) {
      let v: unknown;
      let parsed = true;
      try {
        v = JSON.parse(raw);
      } catch {
        parsed = false;
      }
      if (parsed) {
        dispatch(v, firstLine + i, undefined, raw, false, sink);
        continue;
      }
    }
    if (raw.charCodeAt(raw.length - 1) === 13) raw = raw.slice(0, -1); // CRLF from Windows editors
    if (i === 0 && firstLine === 1 && raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1); // BOM
    const lineNo = firstLine + i;
    const t = raw.trim();
    if (t === '' || t.startsWith('//') || t.startsWith('#')) continue; // blank lines and comment lines are fine

    const one = parseValue(t, t === fast && t.charCodeAt(0) === 123, work);
    if (one.ok) {
      dispatch(one.value, lineNo, undefined, raw, one.json5, sink);
      continue;
    }

    // A pretty-printed object spread over several lines (a hand edit): join until it parses.
    if (t.startsWith('{')) {
      const span = tryMultiLine(lines, i, work);
      if (span === 'open' && holdOpenTail) return pos;
      if (typeof span === 'object') {
        dispatch(span.value, lineNo, firstLine + span.end, span.text, true, sink);
        for (let k = i; k < span.end; k++) pos += lines[k]!.length + 1;
        i = span.end;
        continue;
      }
    }

    const torn = i === last && !endsWithNewline;
    sink.bad(
      lineNo,
      undefined,
      torn ? 'incomplete last line (an interrupted write?)' : `not valid JSON or JSON5 (${one.error})`,
      raw,
      reservedIdOf(t),
    );
  }
  return null;
}

/** A broken line that still shows an id keeps that id reserved, so it is never handed out again. */
function reservedIdOf(t: string): number | undefined {
  const m = /^\{\s*["']?id["']?\s*:\s*(\d{1,15})\b/.exec(t);
  if (!m) return undefined;
  const id = Number(m[1]);
  return Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

// JSON5 accepts hex, NaN, Infinity and leading dots as numbers; ids written that way are a hand-edit
// mistake we should report, not silently reinterpret.
const ODD_NUMBER_RE = /(^|[{,])\s*["']?(id|target)["']?\s*:\s*[+-]?(0x|Infinity|NaN|\.)/i;

/** Validate one parsed value and hand it to the sink as an item, tombstone, header or bad line. */
function dispatch(v: unknown, line: number, endLine: number | undefined, raw: string, json5: boolean, sink: EntrySink): void {
  // No closures here: this runs once per line and allocation is what costs at 100k lines.
  const end = endLine !== undefined && endLine !== line ? endLine : undefined;
  const reason = validate(v, raw, json5);
  if (reason === undefined) {
    const o = v as Record<string, unknown>;
    if (o.kind === 'forget') sink.forget(o as unknown as Tombstone, line, end);
    else if (o.kind === 'pin' || o.kind === 'unpin') sink.pin(o as unknown as PinRecord, line, end);
    else sink.item(o as unknown as MemoryItem, validatedTime, line, end);
    return;
  }
  if (reason === HEADER) {
    const meta = (v as { meta: unknown }).meta;
    const maxId = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).maxId : undefined;
    sink.header(isId(maxId) ? maxId : undefined, line);
    return;
  }
  const id = (v as { id?: unknown } | null)?.id;
  sink.bad(line, end, reason, raw, isId(id) ? id : undefined);
}

const HEADER = '\u0000header';
/** The time of the last value validate() accepted (saves a second parse, and an allocation). */
let validatedTime = NaN;

/**
 * Milliseconds of an ISO-8601 UTC time. The form aish writes, `YYYY-MM-DDTHH:MM:SS[.sss]Z`, is read
 * by hand (several times faster than Date.parse, which costs ~15 ms per 100k items); anything else
 * goes to Date.parse.
 */
export function isoTime(ts: string): number {
  const n = ts.length;
  if ((n === 20 || n === 24) && ts.charCodeAt(n - 1) === 90 /* Z */ && ts.charCodeAt(10) === 84 /* T */) {
    const y = digits(ts, 0, 4);
    const mo = digits(ts, 5, 2);
    const d = digits(ts, 8, 2);
    const h = digits(ts, 11, 2);
    const mi = digits(ts, 14, 2);
    const se = digits(ts, 17, 2);
    const ms = n === 24 ? (ts.charCodeAt(19) === 46 ? digits(ts, 20, 3) : -1) : 0;
    // Plain cases only; anything unusual (Feb 30, 24:00, …) is Date.parse's call, so both agree.
    if (
      y >= 100 &&
      mo >= 1 &&
      mo <= 12 &&
      d >= 1 &&
      d <= 28 &&
      h >= 0 &&
      h <= 23 &&
      mi >= 0 &&
      mi <= 59 &&
      se >= 0 &&
      se <= 59 &&
      ms >= 0 &&
      ts.charCodeAt(4) === 45 &&
      ts.charCodeAt(7) === 45 &&
      ts.charCodeAt(13) === 58 &&
      ts.charCodeAt(16) === 58
    ) {
      return Date.UTC(y, mo - 1, d, h, mi, se, ms);
    }
  }
  return Date.parse(ts);
}

function digits(s: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** undefined when `v` is a valid item or tombstone; HEADER for a meta header; else the reason. */
function validate(v: unknown, raw: string, json5: boolean): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  const id = o.id;
  if (id === undefined && 'meta' in o) return HEADER;
  if (json5 && ODD_NUMBER_RE.test(raw)) return 'id and target must be plain decimal integers (not hex, NaN or Infinity)';
  if (id === undefined) return 'missing id';
  if (!isId(id)) return `id must be a positive integer (got ${show(id)})`;
  const ts = o.ts;
  validatedTime = typeof ts === 'string' ? isoTime(ts) : NaN;
  if (Number.isNaN(validatedTime)) return `ts must be an ISO-8601 time (got ${show(ts)})`;
  const kind = o.kind;
  if (kind === 'forget' || kind === 'pin' || kind === 'unpin')
    return isId(o.target) ? undefined : `${kind} needs a target id (got ${show(o.target)})`;
  if (!isMemoryKind(kind)) return `unknown kind ${show(kind)} (expected fact, pref, context, forget, pin or unpin)`;
  const content = o.content;
  // trim() only when the text may start with white space (ASCII or not): it copies, and this runs per item.
  if (
    typeof content !== 'string' ||
    content.length === 0 ||
    ((content.charCodeAt(0) <= 32 || content.charCodeAt(0) >= 0x80) && content.trim() === '')
  ) {
    return `content must be non-empty text (got ${show(content)})`;
  }
  return fieldProblem(o);
}

function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}
