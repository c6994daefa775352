import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCall } from '../../src/broker/types';
import { Conversation } from '../../src/context/conversation';
import { composeSystemPrompt } from '../../src/context/system-prompt';
import { messageTokens } from '../../src/context/tokens';
import { slidingWindow } from '../../src/context/window';

const sys: ChatMessage = { role: 'system', content: 'S'.repeat(36) };
const user = (t: string): ChatMessage => ({ role: 'user', content: t });
const asst = (t: string): ChatMessage => ({ role: 'assistant', content: t });
const call = (id: string): ToolCall => ({ id, type: 'function', function: { name: 'run_command', arguments: `{"command":"ls ${id}"}` } });
const calling = (...ids: string[]): ChatMessage => ({ role: 'assistant', content: null, tool_calls: ids.map(call) });
const result = (id: string, t = 'output'): ChatMessage => ({ role: 'tool', tool_call_id: id, content: t });
const tokens = (ms: ChatMessage[]) => ms.reduce((n, m) => n + messageTokens(m), 0);
const contents = (ms: ChatMessage[]) =>
  ms.map((m) =>
    m.role === 'tool'
      ? `tool:${m.tool_call_id}`
      : (m.content ?? `call:${(m as { tool_calls: ToolCall[] }).tool_calls.map((c) => c.id).join(',')}`),
  );

describe('sliding window', () => {
  const history = [
    user('q1 ' + 'a'.repeat(70)),
    asst('a1 ' + 'b'.repeat(70)),
    user('q2 ' + 'c'.repeat(70)),
    asst('a2 ' + 'd'.repeat(70)),
    user('q3'),
    asst('a3'),
  ];

  it('keeps everything within budget', () => {
    const r = slidingWindow(sys, history, 10_000);
    expect(r.messages).toEqual([sys, ...history]);
    expect(r.evicted).toBe(0);
    expect(r.tokens).toBe(tokens([sys, ...history]));
  });

  it('evicts the oldest exchanges first and always keeps the system prompt', () => {
    const all = tokens([sys, ...history]);
    const oneExchange = tokens(history.slice(0, 2));
    const r = slidingWindow(sys, history, all - 1);
    expect(contents(r.messages)).toEqual(contents([sys, ...history.slice(2)]));
    expect(r.evicted).toBe(2);
    expect(r.tokens).toBe(all - oneExchange);
    const tight = slidingWindow(sys, history, tokens([sys, ...history.slice(4)]));
    expect(contents(tight.messages)).toEqual(contents([sys, user('q3'), asst('a3')]));
    expect(tight.messages[0]).toBe(sys);
  });

  it('keeps the newest exchange even when it alone is over budget', () => {
    const r = slidingWindow(sys, history, 1);
    expect(contents(r.messages)).toEqual(['S'.repeat(36), 'q3', 'a3']);
  });

  it('never splits a tool call from its results', () => {
    const msgs = [
      user('old question'),
      asst('old answer'),
      user('goal: fix the build'),
      calling('c1', 'c2'),
      result('c1', 'x'.repeat(200)),
      result('c2', 'y'.repeat(200)),
      calling('c3'),
      result('c3', 'z'.repeat(50)),
      asst('done'),
    ];
    for (let budget = 1; budget <= tokens([sys, ...msgs]) + 1; budget += 3) {
      const kept = slidingWindow(sys, msgs, budget).messages;
      // every tool result is preceded (somewhere earlier in the kept list) by the call that made it,
      // and every kept call has all its results
      for (const [i, m] of kept.entries()) {
        if (m.role === 'tool') {
          const caller = kept.slice(0, i).find((p) => p.role === 'assistant' && p.tool_calls?.some((c) => c.id === m.tool_call_id));
          expect(caller, `budget ${budget}: result ${m.tool_call_id} without its call`).toBeDefined();
        }
        if (m.role === 'assistant' && m.tool_calls) {
          for (const c of m.tool_calls)
            expect(
              kept.some((k) => k.role === 'tool' && k.tool_call_id === c.id),
              `budget ${budget}: call ${c.id} without result`,
            ).toBe(true);
        }
      }
      expect(kept[0]).toBe(sys);
    }
    // when the last exchange alone is too big, its oldest step goes first and the goal stays
    const r = slidingWindow(
      sys,
      msgs,
      tokens([sys, user('goal: fix the build'), calling('c3'), result('c3', 'z'.repeat(50)), asst('done')]),
    );
    expect(contents(r.messages)).toEqual(['S'.repeat(36), 'goal: fix the build', 'call:c3', 'tool:c3', 'done']);
  });
});

describe('Conversation.request', () => {
  it('puts the given system prompt first, then the window; :clear keeps nothing', () => {
    const c = new Conversation(8000);
    const system = composeSystemPrompt({ memoryItems: [{ kind: 'fact', content: 'likes tea' }] });
    c.add(user('hi'));
    const r = c.request(system);
    expect(r.messages[0]!.role).toBe('system');
    expect(r.messages[0]!.content).toMatch(/\[background\] \(memory loaded at startup; managed via :memory\)\n- \(fact\) likes tea$/);
    expect(r.messages.slice(1)).toEqual([user('hi')]);
    c.clear();
    expect(c.request(system).messages).toHaveLength(1);
  });
});
