/** What a turn's [recall] is searched with: the message, and the last few turns at half weight. */
import type { ChatMessage } from '../broker/types';
import type { QueryPart } from '../memory/recall/recall-rank';

/** Earlier messages that count (the last two exchanges), each cut to this many characters. */
const RECENT = 4;
const MAX_CHARS = 2000;

export function recallQuery(message: string, history: readonly ChatMessage[]): QueryPart[] {
  const parts: QueryPart[] = [{ text: message, weight: 1 }];
  let taken = 0;
  for (let i = history.length - 1; i >= 0 && taken < RECENT; i--) {
    const m = history[i]!;
    if ((m.role !== 'user' && m.role !== 'assistant') || typeof m.content !== 'string' || !m.content) continue;
    parts.push({ text: m.content.slice(-MAX_CHARS), weight: 0.5 });
    taken++;
  }
  return parts;
}
