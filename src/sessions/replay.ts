/** Session-log turns back to chat messages (`:resume`, `aish -c`). */
import type { ChatMessage } from '../broker/types';
import type { Turn } from '../sessions/types';

export function turnsToMessages(turns: readonly Turn[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const t of turns) {
    // A failed call left only its question behind: drop both, as the live session did.
    if (t.meta === 'error') {
      if (out[out.length - 1]?.role === 'user') out.pop();
      continue;
    }
    if (t.meta === 'summarize') continue; // memory extraction, not conversation
    switch (t.role) {
      case 'user':
        out.push({ role: 'user', content: t.content ?? '' });
        break;
      case 'assistant':
        out.push({ role: 'assistant', content: t.content, ...(t.tool_calls && { tool_calls: t.tool_calls }) });
        break;
      case 'tool':
        out.push({ role: 'tool', content: t.content ?? '', tool_call_id: t.tool_call_id ?? '' });
        break;
      case 'system':
        break; // composed fresh each request
    }
  }
  return answerDanglingCalls(out);
}

/**
 * A session that ended mid-tool (crash, Ctrl-C) has calls with no results; the API rejects that.
 * Give each such call a result saying it never ran, right after the call.
 */
function answerDanglingCalls(msgs: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    let j = i + 1;
    for (; j < msgs.length && msgs[j]!.role === 'tool'; j++) {
      const t = msgs[j] as Extract<ChatMessage, { role: 'tool' }>;
      answered.add(t.tool_call_id);
      out.push(t);
    }
    for (const c of m.tool_calls) {
      if (!answered.has(c.id))
        out.push({ role: 'tool', tool_call_id: c.id, content: 'not run: the session ended before this call completed' });
    }
    i = j - 1;
  }
  return out;
}
