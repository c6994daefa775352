/** A long conversation forgets what the window can never send again, and sends the same requests. */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/broker/types';
import { Conversation } from '../../src/context/conversation';
import { messageTokens } from '../../src/context/tokens';
import { slidingWindow } from '../../src/context/window';

const BUDGET = 500;
const exchange = (n: number): ChatMessage[] => [
  { role: 'user', content: `question ${n} ${'q'.repeat(40)}` },
  { role: 'assistant', content: null, tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'run_command', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: `c${n}`, content: 'output '.repeat(10) },
  { role: 'assistant', content: `answer ${n} ${'a'.repeat(150)}` },
];

describe('Conversation over many exchanges', () => {
  it('keeps about two budgets of whole exchanges, and every request is what the full history would give', () => {
    const c = new Conversation(BUDGET);
    const all: ChatMessage[] = [];
    for (let n = 1; n <= 200; n++) {
      for (const m of exchange(n)) {
        c.add(m);
        all.push(m);
      }
      expect(c.request('system').messages).toEqual(slidingWindow({ role: 'system', content: 'system' }, all, BUDGET).messages);
    }
    const kept = c.messages;
    expect(kept.length).toBeLessThan(all.length / 4);
    expect(kept[0]!.role).toBe('user'); // starts at an exchange, never with a tool result cut off from its call
    const tokens = kept.reduce((n, m) => n + messageTokens(m), 0);
    expect(tokens).toBeGreaterThan(2 * BUDGET - 200);
    expect(tokens).toBeLessThanOrEqual(2 * BUDGET + 200);
    expect(kept.at(-1)).toBe(all.at(-1));
  });

  it('keeps one exchange longer than the budget whole, with its opening message', () => {
    const c = new Conversation(50);
    c.add({ role: 'user', content: 'goal' });
    for (let i = 0; i < 30; i++) c.add({ role: 'assistant', content: `step ${i} ${'x'.repeat(40)}` });
    expect(c.messages).toHaveLength(31);
    expect(c.messages[0]!.content).toBe('goal');
  });
});
