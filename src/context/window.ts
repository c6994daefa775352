/**
 * The sliding window: keep the system prompt, drop the oldest exchanges while the
 * conversation is over budget, never separating a tool call from its results.
 *
 * Units: an exchange runs from one user message to the next. When a single exchange is itself over
 * budget (a long Norris run), its oldest steps go next — an assistant message together with the
 * tool results that answer it — while its opening user message (the goal) stays.
 */
import type { ChatMessage } from '../broker/types';
import { messageTokens } from './tokens';

export interface WindowResult {
  messages: ChatMessage[];
  tokens: number;
  evicted: number;
}

/** Split into exchanges, each a list of units; a unit is never split. */
function exchanges(messages: readonly ChatMessage[]): ChatMessage[][][] {
  const out: ChatMessage[][][] = [];
  for (const m of messages) {
    if (m.role === 'user' || out.length === 0) out.push([]);
    const ex = out[out.length - 1]!;
    const last = ex[ex.length - 1];
    // A tool result joins the unit of the assistant message that called it.
    if (m.role === 'tool' && last && last[0]!.role === 'assistant') last.push(m);
    else ex.push([m]);
  }
  return out;
}

const unitTokens = (u: ChatMessage[]) => u.reduce((n, m) => n + messageTokens(m), 0);

export function slidingWindow(system: ChatMessage, messages: readonly ChatMessage[], maxTokens: number): WindowResult {
  const exs = exchanges(messages);
  const sys = messageTokens(system);
  let total = sys + exs.reduce((n, ex) => n + ex.reduce((k, u) => k + unitTokens(u), 0), 0);
  let evicted = 0;

  // Whole exchanges first, oldest first, always keeping the newest one.
  while (total > maxTokens && exs.length > 1) {
    const ex = exs.shift()!;
    for (const u of ex) {
      total -= unitTokens(u);
      evicted += u.length;
    }
  }
  // Then the oldest steps inside the one exchange left, keeping its opening message and newest step.
  const ex = exs[0];
  if (ex && total > maxTokens) {
    const keepFirst = ex[0]![0]!.role === 'user' ? 1 : 0;
    while (total > maxTokens && ex.length > keepFirst + 1) {
      const [u] = ex.splice(keepFirst, 1);
      total -= unitTokens(u!);
      evicted += u!.length;
    }
  }
  return { messages: [system, ...exs.flat(2)], tokens: total, evicted };
}
