/**
 * Provenance and context for capture, found by shared search terms (util/terms) rather than asked
 * of the model: which user turn a candidate came from (quoted in the inbox), and which active items
 * a session is about (shown to the summarizer so it can say what a candidate supersedes).
 */
import type { Turn } from '../../sessions/types';
import { terms } from '../../util/terms';
import { oneLine } from '../../util/text';
import { redactSecrets } from '../../util/secrets/redact';
import type { MemoryItem } from '../types';

const QUOTE_CHARS = 200;

/** The user turn sharing most terms with `content` (ties: the later one), quoted on one line, secrets redacted. */
export function sourceTurn(content: string, turns: readonly Turn[]): { turnTs: string; quote: string } | undefined {
  const want = new Set(terms(content));
  if (want.size === 0) return undefined;
  let best: Turn | undefined;
  let bestScore = 0;
  for (const t of turns) {
    if (t.role !== 'user' || t.meta || typeof t.content !== 'string') continue;
    let score = 0;
    for (const w of new Set(terms(t.content))) if (want.has(w)) score++;
    if (score > 0 && score >= bestScore) {
      best = t;
      bestScore = score;
    }
  }
  if (!best) return undefined;
  return { turnTs: best.ts, quote: oneLine(redactSecrets(best.content as string).text, QUOTE_CHARS) };
}

/** Up to `limit` active items sharing the most terms with `text` (at least two, or one rare enough to be telling). */
export function relatedItems(items: readonly MemoryItem[], text: string, limit: number): MemoryItem[] {
  const want = new Set(terms(text));
  if (want.size === 0 || limit <= 0) return [];
  const scored: Array<{ item: MemoryItem; score: number }> = [];
  for (const item of items) {
    let score = 0;
    for (const w of new Set(terms(item.content))) if (want.has(w)) score++;
    if (score >= 2 || (score === 1 && want.size <= 3)) scored.push({ item, score });
  }
  scored.sort((a, b) => b.score - a.score || b.item.id - a.item.id);
  return scored.slice(0, limit).map((s) => s.item);
}
