/**
 * One line (or a few, for an object spread over several) of memory.jsonl as a value: JSON.parse,
 * then JSON5 for hand edits, within bounds that keep a hostile file linear — a line JSON5 could
 * never read is refused unparsed, a long one gets no JSON5, multi-line attempts share a budget.
 */
import JSON5 from 'json5';
import { CONTROL_CHARS } from '../../util/text';

const MAX_SPAN_LINES = 200;
const MAX_SPAN_CHARS = 64 * 1024;

type Parsed = { ok: true; value: unknown; json5: boolean } | { ok: false; error: string };

/** What a JSON5 value can start with (after white space, which is trimmed): anything else (but an astral character, whose column JSON5 counts its own way) is refused unparsed. */
const VALUE_START = /^[{["'\-+.0-9INtfn/]/;
const JSON5_ESCAPES: Record<string, string> = { '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

/**
 * `t` as a value. `jsonFailed`: JSON.parse already refused this very text; `work`: the parse's
 * budget, which single-line JSON5 attempts draw on too (none once it is spent).
 */
export function parseValue(t: string, jsonFailed = false, work?: SpanWork): Parsed {
  if (!VALUE_START.test(t) && !/^[\ud800-\udbff]/.test(t)) {
    // What JSON5 says of it, without two throws per line (a file of a million such lines).
    const c = String.fromCodePoint(t.codePointAt(0)!);
    const shown = JSON5_ESCAPES[c] ?? (c < ' ' ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c);
    return { ok: false, error: shortJson5Error(`invalid character '${shown}' at 1:1`) };
  }
  let jsonError: unknown;
  if (!jsonFailed) {
    try {
      return { ok: true, value: JSON.parse(t), json5: false };
    } catch (err) {
      jsonError = err;
    }
  }
  // JSON5 is for hand-written lines; on a long one, or a file of very many, it takes seconds for nothing.
  if (t.length > MAX_SPAN_CHARS) return { ok: false, error: `not JSON, and too long for JSON5 (${t.length} characters)` };
  if (work && (work.budget -= t.length) < 0)
    return {
      ok: false,
      error: `not JSON${jsonError ? ` (${shortJson5Error(jsonError)})` : ''}; JSON5 not tried (too many lines are not JSON)`,
    };
  try {
    return { ok: true, value: json5Parse(t), json5: true };
  } catch (err5) {
    return { ok: false, error: shortJson5Error(err5) };
  }
}

function shortJson5Error(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg
    .replace(/^JSON5: /, '')
    .replace(CONTROL_CHARS, '?')
    .replace(/\ufffd/g, '?')
    .slice(0, 80);
}

/**
 * What multi-line attempts of one parse share, so a file of lines that each open an object (`{`,
 * a million times) reads in linear time: whether each line is a record on its own (asked once per
 * line, not once per attempt that passes it), and a budget of characters the attempts may look at
 * and JSON5 may try.
 */
export interface SpanWork {
  standalone: Uint8Array | null;
  budget: number;
}

/** The object, 'broken' (another record starts, too long, or the budget spent), or 'open' (the text ended first). */
export function tryMultiLine(
  lines: string[],
  start: number,
  work: SpanWork,
): { value: unknown; end: number; text: string } | 'broken' | 'open' {
  let acc = lines[start]!;
  if (acc.length > MAX_SPAN_CHARS) return 'broken';
  const known = (work.standalone ??= new Uint8Array(lines.length)); // 0: not asked, 1: a record, 2: not one
  const limit = Math.min(lines.length, start + MAX_SPAN_LINES);
  for (let j = start + 1; j < limit; j++) {
    const next = lines[j]!;
    if ((work.budget -= next.length + 1) < 0) return 'broken';
    const nt = next.trim();
    // The next standalone record begins: the object we were collecting is broken.
    if (known[j] === 0) known[j] = nt.startsWith('{') && parseValue(nt).ok ? 1 : 2;
    if (known[j] === 1) return 'broken';
    acc += '\n' + next;
    if (acc.length > MAX_SPAN_CHARS) return 'broken';
    if (!nt.endsWith('}') && !nt.endsWith('},')) continue; // cheap prefilter before a JSON5 attempt
    if ((work.budget -= acc.length) < 0) return 'broken';
    try {
      return { value: json5Parse(acc.trim().replace(/,$/, '')), end: j, text: acc };
    } catch {
      // keep collecting
    }
  }
  return limit === lines.length && lines.length - start < MAX_SPAN_LINES ? 'open' : 'broken';
}

/**
 * JSON5.parse without its console.warn (it warns about U+2028 in strings), which would otherwise
 * appear on stderr, or paint over the UI, whenever a hand-edited line is read.
 */
function json5Parse(text: string): unknown {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return JSON5.parse(text);
  } finally {
    console.warn = warn;
  }
}
