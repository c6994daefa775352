/**
 * Warnings for the lines of a file that could not be used (memory.jsonl, a session log, the inbox,
 * a team file): each named with its number up to LINES_NAMED, then one line sums up the rest, so a
 * file of a million bad lines never buries the answer under a million warnings. And the cheap
 * JSON.parse of one such line those readers share, so a million of them take no minute either.
 */

export interface LineWarning {
  line: number;
  /** The last line of a record spread over several. */
  endLine?: number;
  reason: string;
}

/** Lines named one by one, at most. */
export const LINES_NAMED = 20;

/**
 * `label:LINE: reason` (`suffix` after each, ` (skipped)` say) for the first LINES_NAMED, then
 * `label: N more lines skipped (lines A–B)` and, when given, `; hint` (what to do about them).
 */
export function lineWarnings(label: string, warnings: readonly LineWarning[], o: { suffix?: string; hint?: string } = {}): string[] {
  const suffix = o.suffix ?? '';
  const at = (w: LineWarning) => `${w.line}${w.endLine !== undefined ? `-${w.endLine}` : ''}`;
  return capped(
    warnings,
    (w) => `${label}:${at(w)}: ${w.reason}${suffix}`,
    (n) => {
      const first = warnings[LINES_NAMED]!;
      const last = warnings[warnings.length - 1]!;
      const more = `${label}: ${n} more lines skipped (lines ${first.line}–${last.endLine ?? last.line})`;
      return o.hint ? `${more}; ${o.hint}` : more;
    },
  );
}

/** The first LINES_NAMED of `warnings`, each `shown`, then one line, `more(how many were left out)`. */
export function capped<T>(warnings: readonly T[], shown: (w: T) => string, more: (n: number) => string): string[] {
  const named = warnings.slice(0, LINES_NAMED).map(shown);
  return warnings.length <= LINES_NAMED ? named : [...named, more(warnings.length - LINES_NAMED)];
}

/** What JSON text can start with, after JSON's own white space. */
const JSON_START = /^[ \t\r\n]*["{[\-0-9tfn]/;

/**
 * `JSON.parse(line)`, cheaply refused when it cannot be JSON: a file of a million broken lines
 * would otherwise cost a million exceptions, each capturing a stack (seconds, for warnings).
 */
export function parseJsonLine(line: string): { ok: true; value: unknown } | { ok: false } {
  if (!JSON_START.test(line)) return { ok: false };
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return { ok: false };
  } finally {
    Error.stackTraceLimit = depth;
  }
}
