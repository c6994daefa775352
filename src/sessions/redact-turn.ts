/**
 * Secrets in turns. The session log keeps the conversation as it was (a resumed session must mean
 * the same), except what is bound for memory: the arguments of a `memory_remember` call (the item
 * the model proposed, secrets and all) and that call's result. Exports are redacted whole.
 */

import { redactJsonText } from '../util/secrets/json';
import { redactSecrets } from '../util/secrets/redact';
import type { Turn } from './types';

/** Tool calls whose arguments become a memory item. */
const MEMORY_BOUND = new Set(['memory_remember']);

export class MemoryBoundRedactor {
  /** Ids of memory-bound calls seen, so their results are recognised. */
  private readonly calls = new Set<string>();

  turn<T extends Turn>(t: T): T {
    if (t.tool_calls?.some((c) => MEMORY_BOUND.has(c.function.name))) {
      const tool_calls = t.tool_calls.map((c) => {
        if (!MEMORY_BOUND.has(c.function.name)) return c;
        this.calls.add(c.id);
        return { ...c, function: { ...c.function, arguments: redactJsonText(c.function.arguments) } };
      });
      return { ...t, tool_calls };
    }
    if (t.role === 'tool' && t.tool_call_id && this.calls.has(t.tool_call_id) && t.content) {
      return { ...t, content: redactSecrets(t.content).text };
    }
    return t;
  }
}

/** A turn as an export shows it: everything it says redacted (`--raw` exports skip this). */
export function redactWholeTurn(t: Turn): Turn {
  const text = (s: string) => redactSecrets(s).text;
  return {
    ...t,
    content: t.content === null ? null : text(t.content),
    ...(t.typed !== undefined && { typed: text(t.typed) }),
    ...(t.tool_calls && {
      tool_calls: t.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: redactJsonText(c.function.arguments) } })),
    }),
  };
}
