/** `:history` as readable text: each message with its role, whole, nothing elided. */
import type { ChatMessage } from '../broker/types';

export function formatHistory(messages: readonly ChatMessage[]): string {
  return messages
    .map((m) => {
      const head = m.role === 'tool' ? `── tool (${m.tool_call_id}) ──` : `── ${m.role} ──`;
      const calls =
        m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => `→ ${c.function.name}(${c.function.arguments})`).join('\n') : '';
      const body = [m.content ?? '', calls].filter(Boolean).join('\n');
      return `${head}\n${body}`;
    })
    .join('\n');
}
