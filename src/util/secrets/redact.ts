/**
 * Redaction of secrets in text aish keeps: memory items, typed-input history, session logs,
 * exports. Matching is on a normalized copy (see normalize.ts); the original text is kept outside
 * each secret, which becomes `[redacted]`.
 */

import { LABEL_FORMS } from './extra-rules';
import { findSecrets, RANDOM_TOKEN } from './find';
import { normalizeForScan, originalRange } from './normalize';

export interface Redaction {
  text: string;
  /** What was found, by rule, in order, e.g. ["github-pat", "password"]. */
  found: string[];
}

const REDACTED = '[redacted]';

export function redactSecrets(input: string): Redaction {
  const norm = normalizeForScan(input);
  const findings = findSecrets(norm.text).filter((f) => f.to > f.from);
  if (!findings.length) return { text: input, found: [] };
  // In text order; of two findings of the same secret, the longer, then the one with the most
  // telling name: a token's readable name, a gitleaks rule id, a label form's, the entropy check's.
  const readable = (id: string) => (id === RANDOM_TOKEN ? 3 : LABEL_FORMS.has(id) ? 2 : /[A-Z ]/.test(id) ? 0 : 1);
  const ranges = findings
    .map((f) => ({ id: f.id, range: originalRange(norm, f.from, f.to) }))
    .sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1] || readable(a.id) - readable(b.id));
  const parts: string[] = [];
  const found: string[] = [];
  let at = 0;
  for (const f of ranges) {
    const [from, to] = f.range;
    if (from < at) {
      // Overlaps the secret before it: one redaction, named once.
      at = Math.max(at, to);
      continue;
    }
    found.push(f.id);
    parts.push(input.slice(at, from), REDACTED);
    at = to;
  }
  parts.push(input.slice(at));
  return { text: parts.join(''), found };
}

/** `text` with its secrets redacted (the found list dropped). */
export function redactText(text: string): string {
  return redactSecrets(text).text;
}
