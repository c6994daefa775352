/**
 * One turn: model call, then its tool calls through the gate, results back to the model, again —
 * until the model answers without tools, the round cap is hit, the user cancels, or a call fails.
 * Chat mode and Norris share it; Norris counts each model call as a step.
 */
import { BrokerError } from '../broker/errors';
import type { ChatMessage, StreamResult } from '../broker/types';
import { isExact, loadTokenizer } from '../context/tokens';
import type { GateMode } from '../tools/gate';
import { AishError, formatError } from '../util/errors';
import type { Engine } from './engine';
import { executeToolCall } from './tool-calls';

export type TurnEnd = 'answered' | 'rounds' | 'interrupted' | 'error';

export interface TurnOutcome {
  end: TurnEnd;
  /** Model calls made. */
  steps: number;
  refused: number;
  denied: number;
  /** The last answer text (Norris's summary). */
  answer: string;
  error?: AishError;
}

export interface TurnOptions {
  mode: GateMode;
  yes: boolean;
  maxRounds: number;
  /** Called before each model call with its number (1-based). */
  onStep?: (step: number) => void;
}

export async function runTurn(engine: Engine, opts: TurnOptions): Promise<TurnOutcome> {
  const out: TurnOutcome = { end: 'answered', steps: 0, refused: 0, denied: 0, answer: '' };
  await engine.cancellable(async (signal) => {
    for (;;) {
      if (out.steps >= opts.maxRounds) {
        out.end = 'rounds';
        return;
      }
      out.steps++;
      opts.onStep?.(out.steps);
      let result: StreamResult;
      try {
        result = await modelCall(engine, signal);
      } catch (err) {
        out.end = 'error';
        out.error = err instanceof AishError ? err : new AishError(formatError(err));
        return;
      }
      out.answer = result.content;
      if (result.interrupted) {
        out.end = 'interrupted';
        return;
      }
      if (result.toolCalls.length === 0) return;
      for (const call of result.toolCalls) {
        // After a cancel, every remaining call still needs a result, or the API rejects the history.
        const r = signal.aborted
          ? { content: 'Not run: the user stopped the run.', refused: false, denied: false }
          : await executeToolCall(engine, call, { mode: opts.mode, yes: opts.yes, signal });
        if (r.refused) out.refused++;
        if (r.denied) out.denied++;
        const msg: ChatMessage = { role: 'tool', tool_call_id: call.id, content: r.content };
        engine.conversation.add(msg);
        engine.appendLog({ role: 'tool', content: r.content, tool_call_id: call.id, ...(opts.mode === 'norris' && { meta: 'norris' }) });
      }
      if (signal.aborted) {
        out.end = 'interrupted';
        return;
      }
    }
  });
  return out;
}

/** One streamed model call; its answer (and tool calls) join the conversation and the log. */
async function modelCall(engine: Engine, signal: AbortSignal): Promise<StreamResult> {
  const host = engine.host;
  host.liveStart('assistant');
  let live = true;
  const endLive = () => {
    if (live) host.liveEnd();
    live = false;
  };
  try {
    let req = engine.conversation.request();
    // Near the budget, count exactly before deciding what to evict.
    if (!isExact() && req.tokens > engine.conversation.budget * 0.6) {
      await loadTokenizer();
      req = engine.conversation.request();
    }
    const result = await engine.broker().stream(req.messages, { signal, tools: await engine.toolSpecsReady(), onText: (t) => host.liveText(t) });
    endLive();
    const calls = result.interrupted ? [] : result.toolCalls;
    const content = result.interrupted ? `${result.content}${result.content ? '\n\n' : ''}[interrupted by the user]` : result.content;
    engine.conversation.add({ role: 'assistant', content: content || (calls.length ? null : ''), ...(calls.length && { tool_calls: calls }) });
    engine.appendLog({
      role: 'assistant',
      content: content || (calls.length ? null : ''),
      ...(calls.length && { tool_calls: calls }),
      ...(result.interrupted && { meta: 'interrupted' }),
    });
    if (result.content) host.print({ kind: 'assistant', text: result.content, markdown: true, interrupted: result.interrupted });
    if (result.interrupted) host.print({ kind: 'info', text: 'interrupted' });
    return { ...result, toolCalls: calls };
  } catch (err) {
    endLive();
    const partial = err instanceof BrokerError ? err.partial : '';
    if (partial) {
      const content = `${partial}\n\n[answer broken off]`;
      engine.conversation.add({ role: 'assistant', content });
      engine.appendLog({ role: 'assistant', content, meta: 'interrupted' });
      host.print({ kind: 'assistant', text: partial, markdown: true, interrupted: true });
    } else if (engine.conversation.messages.at(-1)?.role === 'user') {
      // Nothing came back: take the question out again so a retry does not send it twice.
      engine.conversation.load(engine.conversation.messages.slice(0, -1));
      engine.appendLog({ role: 'assistant', content: null, meta: 'error' });
    }
    throw err;
  }
}
