/**
 * Streaming chat completions on the `openai` SDK. The SDK is imported on first use, so
 * start-up never pays for it. The SDK's `timeout` covers the wait for headers only, not the body; a
 * stream that stalls is caught by our own idle timer.
 */
import type OpenAI from 'openai';
import { fetchReadableErrors } from './error-body';
import { BrokerError, duration, noKeyError, toBrokerError, tooLongToWait } from './errors';
import { maxTokensField, type ResolvedPreset } from './presets';
import type { ChatMessage, StreamOptions, StreamResult, ToolCall, Usage } from './types';

type Client = OpenAI;

const MAX_RETRIES = 2;
/** A server asking us to wait longer than this gets its error reported instead. */
const RETRY_AFTER_CAP_MS = 20_000;

/** Sleeps; true when the signal aborted it first. */
function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      resolve(true);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class Broker {
  private client: Client | undefined;
  /** Some OpenAI-compatible servers reject stream_options; remembered after the first refusal. */
  private usageOption = true;

  constructor(readonly preset: ResolvedPreset) {}

  /** Load the SDK and make the client now, so the first call does not wait for it; a failure is the first call's to report. */
  prepare(): void {
    this.getClient().catch(() => undefined);
  }

  private async getClient(): Promise<Client> {
    if (this.client) return this.client;
    const p = this.preset;
    if (!p.apiKey) throw noKeyError(p);
    const { default: OpenAIClass } = await import('openai');
    this.client = new OpenAIClass({
      apiKey: p.apiKey,
      baseURL: p.baseURL,
      // Retries are ours (stream() below): the SDK's sleeps cannot be cancelled, honour any
      // retry-after however long, and would run under our no-answer timer.
      timeout: p.timeoutMs + 5000,
      maxRetries: 0,
      // The SDK console.error()s bad chunks, which would paint over the UI; we report them ourselves.
      logLevel: 'off',
      // The server's own words on a failed call, whatever shape its error body has.
      fetch: fetchReadableErrors,
    });
    return this.client;
  }

  /**
   * Streams one answer. Rate limits, server errors and refused connections are retried (twice, as
   * the SDK would): waiting the server's retry-after (up to RETRY_AFTER_CAP_MS; a longer one is
   * reported as not retried) or a short backoff, each wait cancellable with Ctrl-C, each attempt
   * with its own no-answer timer.
   */
  async stream(messages: ChatMessage[], opts: StreamOptions = {}): Promise<StreamResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.streamOnce(messages, opts);
      } catch (err) {
        if (!(err instanceof BrokerError)) throw err;
        if (this.usageOption && err.kind === 'rejected' && /stream_options|include_usage/i.test(err.message)) {
          this.usageOption = false;
          attempt--;
          continue;
        }
        const retryable = (err.kind === 'rate-limit' || err.kind === 'server' || err.kind === 'unreachable') && !err.partial;
        const wait = err.retryAfterMs ?? Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() / 2);
        if (!retryable || attempt >= MAX_RETRIES) throw err;
        if (wait > RETRY_AFTER_CAP_MS) throw tooLongToWait(err, RETRY_AFTER_CAP_MS, attempt);
        opts.onRetry?.({ attempt: attempt + 2, of: MAX_RETRIES + 1, waitMs: wait });
        if (await abortableSleep(wait, opts.signal)) return { content: '', toolCalls: [], finishReason: null, interrupted: true };
      }
    }
  }

  private async streamOnce(messages: ChatMessage[], opts: StreamOptions): Promise<StreamResult> {
    const p = this.preset;
    const client = await this.getClient();
    const ac = new AbortController();
    let userAborted = false;
    const onUserAbort = () => {
      userAborted = true;
      ac.abort();
    };
    if (opts.signal?.aborted) onUserAbort();
    opts.signal?.addEventListener('abort', onUserAbort, { once: true });

    // One timer: first for the response headers (`noAnswer`), then re-armed by every chunk (`stalled`).
    let stalled = false;
    let noAnswer = false;
    let idle: NodeJS.Timeout | undefined = setTimeout(() => {
      noAnswer = true;
      ac.abort();
    }, p.timeoutMs);
    let streaming = false;
    const arm = () => {
      // A chunk while streaming pushes the timer back: refresh() instead of a new timer per chunk.
      if (streaming) return void idle?.refresh();
      streaming = true;
      clearTimeout(idle);
      idle = setTimeout(() => {
        stalled = true;
        ac.abort();
      }, p.timeoutMs);
    };

    let content = '';
    const calls: Array<{ id: string; name: string; args: string }> = [];
    let finishReason: string | null = null;
    let usage: Usage | undefined;

    try {
      const stream = await client.chat.completions.create(
        {
          // First, so nothing below can be replaced by it (validation refuses model, messages, stream, tools).
          ...p.extraBody,
          model: p.model,
          messages,
          stream: true,
          ...(this.usageOption && { stream_options: { include_usage: true } }),
          ...(opts.tools && opts.tools.length > 0 && { tools: opts.tools }),
          ...(p.maxTokens !== undefined && { [maxTokensField(p)]: p.maxTokens }),
          ...(p.temperature !== undefined && { temperature: p.temperature }),
          ...(p.topP !== undefined && { top_p: p.topP }),
        },
        { signal: ac.signal },
      );
      arm();
      for await (const chunk of stream) {
        arm();
        if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
        for (const choice of chunk.choices ?? []) {
          const d = choice.delta;
          if (d?.content) {
            content += d.content;
            opts.onText?.(d.content);
          }
          for (const tc of d?.tool_calls ?? []) {
            const slot = (calls[tc.index] ??= { id: '', name: '', args: '' });
            if (tc.id) slot.id = tc.id;
            if (tc.function?.name) slot.name += tc.function.name;
            if (tc.function?.arguments) slot.args += tc.function.arguments;
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
      }
    } catch (err) {
      if (userAborted) return this.result(content, calls, finishReason, usage, true);
      if (stalled) throw this.stalledError(content);
      if (noAnswer) {
        throw new BrokerError(
          'timeout',
          `no answer from ${p.baseURL} within ${duration(p.timeoutMs)} — check the server, or raise models.${p.name}.timeoutMs`,
        );
      }
      throw toBrokerError(err, p, content);
    } finally {
      clearTimeout(idle);
      opts.signal?.removeEventListener('abort', onUserAbort);
    }
    // Aborting mid-stream ends the SDK's loop quietly, without an error: tell the reasons apart here.
    if (userAborted) return this.result(content, calls, finishReason, usage, true);
    if (stalled) throw this.stalledError(content);
    if (finishReason === null) {
      throw new BrokerError(
        'cut',
        `the answer from ${p.baseURL} ended before it was finished${content ? '; partial answer kept' : ''}`,
        content,
      );
    }
    return this.result(content, calls, finishReason, usage, false);
  }

  private stalledError(partial: string): BrokerError {
    const p = this.preset;
    return new BrokerError(
      'stalled',
      `the answer from ${p.baseURL} stalled for ${duration(p.timeoutMs)}${partial ? '; partial answer kept' : ''} — try again, or raise models.${p.name}.timeoutMs`,
      partial,
    );
  }

  private result(
    content: string,
    calls: Array<{ id: string; name: string; args: string }>,
    finishReason: string | null,
    usage: Usage | undefined,
    interrupted: boolean,
  ): StreamResult {
    const toolCalls: ToolCall[] = calls
      .filter((c) => c && c.name)
      .map((c, i) => ({ id: c.id || `call_${i}`, type: 'function', function: { name: c.name, arguments: c.args || '{}' } }));
    return { content, toolCalls, finishReason, interrupted, ...(usage && { usage }) };
  }
}
