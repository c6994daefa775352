/**
 * Redaction of JSON text (a tool call's arguments): each string in it redacted on its own, so the
 * result is still the same JSON shape. Text that is not JSON is redacted as text.
 */

import { redactSecrets } from './redact';

/** Deeper than this, a value is redacted as its JSON text: no recursion as deep as the input. */
const MAX_DEPTH = 32;

function walk(v: unknown, found: string[], depth = 0): unknown {
  if (depth > MAX_DEPTH && v && typeof v === 'object') {
    const r = redactSecrets(JSON.stringify(v));
    found.push(...r.found);
    return r.text;
  }
  if (typeof v === 'string') {
    const r = redactSecrets(v);
    found.push(...r.found);
    return r.text;
  }
  if (Array.isArray(v)) return v.map((x) => walk(x, found, depth + 1));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, found, depth + 1)]));
  return v;
}

/** `text` with the secrets in its strings redacted; unchanged (same string) when there are none. */
export function redactJsonText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactSecrets(text).text;
  }
  const found: string[] = [];
  const out = walk(parsed, found);
  return found.length ? JSON.stringify(out) : text;
}
