/**
 * One turn: model call, then its tool calls through the gate, results back to the model, again —
 * until the model answers without tools, the round cap is hit, the user cancels, or a call fails.
 * Chat mode and Norris share it; Norris counts each model call as a step.
 */
import type { Broker } from '../broker/broker';
import { BrokerError } from '../broker/errors';
import type { ChatMessage, StreamResult, Usage } from '../broker/types';
import type { AishConfig } from '../config/types';
import type { Conversation } from '../context/conversation';
import { countTokens, isExact, loadTokenizer, messageText } from '../context/tokens';
import type { WindowResult } from '../context/window';
import type { NewTurn } from '../sessions/types';
import type { GateMode } from '../tools/gate';
import type { Toolbox } from '../tools/toolbox';
import { AishError, formatError } from '../util/errors';
import type { Guards } from './guards';
import type { EngineHost } from './host';
import { executeToolCall } from './tool-call';

type TurnEnd = 'answered' | 'rounds' | 'interrupted' | 'error';

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

/** What a turn needs from the session it runs in (built once, frozen, by the composition root). */
export interface TurnDeps {
  readonly host: EngineHost;
  readonly conversation: Conversation;
  readonly toolbox: Toolbox;
  readonly cwd: string;
  readonly config: Pick<AishConfig, 'safety'>;
  /** The exact request the model gets next: system prompt (with memory or Norris) and the window (see SessionParts). */
  request(beforeNextPrompt?: boolean): WindowResult;
  broker(): Broker;
  /** Sandbox and checkpoints for steps. */
  readonly guards: Guards;
  /** Label of the step for checkpoints (e.g. "step 3/8"), when there is one. */
  stepLabel?(): string | undefined;
  record(turn: NewTurn): void;
  /** Tokens of one model call; `estimated` when the server sent none; `firstOfTurn` on a turn's first call. */
  countUsage(usage: Usage, opts: { estimated: boolean; firstOfTurn: boolean }): void;
  /** A model call failed (piped mode exits 1 when any did). */
  callFailed?(): void;
  cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export async function runTurn(deps: Readonly<TurnDeps>, opts: TurnOptions): Promise<TurnOutcome> {
  const out: TurnOutcome = { end: 'answered', steps: 0, refused: 0, denied: 0, answer: '' };
  await deps.cancellable(async (signal) => {
    for (;;) {
      if (out.steps >= opts.maxRounds) {
        out.end = 'rounds';
        return;
      }
      out.steps++;
      opts.onStep?.(out.steps);
      let result: StreamResult;
      try {
        result = await modelCall(deps, signal, out.steps === 1);
      } catch (err) {
        out.end = 'error';
        deps.callFailed?.();
        out.error = err instanceof AishError ? err : new AishError(formatError(err));
        return;
      }
      out.answer = result.content;
      if (result.interrupted) {
        out.end = 'interrupted';
        return;
      }
      if (result.toolCalls.length === 0) return;
      // Only steps that run on their own use the sandbox: in chat with confirmations on, none does,
      // so the sandbox is not even looked for.
      // Looked for in chat too: a step an allow rule lets through runs unasked, so in the sandbox.
      const sandbox = await deps.guards.sandbox();
      const checkpoint = (label: string) => deps.guards.checkpoint(label, deps.stepLabel?.());
      const watch = (label: string, unsandboxed: boolean) => deps.guards.watch(label, deps.stepLabel?.(), unsandboxed);
      for (const call of result.toolCalls) {
        // After a cancel, every remaining call still needs a result, or the API rejects the history.
        const r = signal.aborted
          ? { content: 'Not run: the user stopped the run.', refused: false, denied: false }
          : await executeToolCall(call, {
              host: deps.host,
              toolbox: deps.toolbox,
              cwd: deps.cwd,
              confirmCommands: deps.config.safety.confirmCommands,
              mode: opts.mode,
              yes: opts.yes,
              sandbox,
              sandboxRequired: deps.guards.sandboxRequired,
              checkpoint,
              watch,
              signal,
            });
        if (r.refused) out.refused++;
        if (r.denied) out.denied++;
        const msg: ChatMessage = { role: 'tool', tool_call_id: call.id, content: r.content };
        deps.conversation.add(msg);
        deps.record({ role: 'tool', content: r.content, tool_call_id: call.id, ...(opts.mode === 'norris' && { meta: 'norris' }) });
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
async function modelCall(deps: Readonly<TurnDeps>, signal: AbortSignal, firstOfTurn: boolean): Promise<StreamResult> {
  const { host, conversation } = deps;
  host.liveStart('assistant');
  let live = true;
  const endLive = () => {
    if (live) host.liveEnd();
    live = false;
  };
  try {
    let req = deps.request();
    // Near the budget, count exactly before deciding what to evict.
    if (!isExact() && req.tokens > conversation.budget * 0.6) {
      await loadTokenizer();
      req = deps.request();
    }
    const result = await deps.broker().stream(req.messages, {
      signal,
      tools: await deps.toolbox.specsReady(),
      onText: (t) => host.liveText(t),
      onRetry: (r) => host.liveRetry?.(r),
    });
    endLive();
    // Servers that send no usage get the token counter's estimate, shown with a ~.
    const estimate = (): Usage => ({
      promptTokens: req.tokens,
      completionTokens: countTokens(messageText({ role: 'assistant', content: result.content, tool_calls: result.toolCalls })),
    });
    deps.countUsage(result.usage ?? estimate(), { estimated: !result.usage, firstOfTurn });
    const calls = result.interrupted ? [] : result.toolCalls;
    const content = result.interrupted ? `${result.content}${result.content ? '\n\n' : ''}[interrupted by the user]` : result.content;
    const message = {
      role: 'assistant' as const,
      content: content || (calls.length ? null : ''),
      ...(calls.length && { tool_calls: calls }),
    };
    conversation.add(message);
    deps.record({ ...message, ...(result.interrupted && { meta: 'interrupted' }) });
    if (result.content) host.print({ kind: 'assistant', text: result.content, markdown: true, interrupted: result.interrupted });
    // One marker per Ctrl-C: an answer cut short carries its own ([interrupted] under the text).
    if (result.interrupted && !result.content) host.print({ kind: 'info', text: '[interrupted]' });
    return { ...result, toolCalls: calls };
  } catch (err) {
    endLive();
    const partial = err instanceof BrokerError ? err.partial : '';
    if (partial) {
      const content = `${partial}\n\n[answer broken off]`;
      conversation.add({ role: 'assistant', content });
      deps.record({ role: 'assistant', content, meta: 'interrupted' });
      host.print({ kind: 'assistant', text: partial, markdown: true, interrupted: true });
    } else if (conversation.messages.at(-1)?.role === 'user') {
      // Nothing came back: take the question out again so a retry does not send it twice.
      conversation.load(conversation.messages.slice(0, -1));
      deps.record({ role: 'assistant', content: null, meta: 'error' });
    }
    throw err;
  }
}
