// The fake OpenAI server, exercised through the real `openai` SDK. Besides checking the helper, these
// tests pin down how the SDK (openai@6.49.0) reacts to each failure mode, which the broker relies on.
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFakeClock } from '../helpers/fake-clock';
import { lastUserText, startFakeOpenAI, systemText, type FakeOpenAI } from '../helpers/openai-server';

let server: FakeOpenAI;
beforeEach(async () => {
  server = await startFakeOpenAI();
});
afterEach(async () => {
  await server.close();
});

// logLevel 'off': the SDK otherwise console.error()s unparsable chunks.
const client = (o: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ apiKey: 'test', baseURL: server.url, logLevel: 'off', ...o });
const base = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi there' }] };
const streamed = (extra: Partial<ChatCompletionCreateParamsStreaming> = {}): ChatCompletionCreateParamsStreaming => ({
  ...base,
  stream: true,
  ...extra,
});

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}
const contents = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.content).filter((s): s is string => !!s);

/** Iterates, returning the text seen and whatever was thrown (undefined if iteration ended normally). */
async function drain(stream: AsyncIterable<ChatCompletionChunk>, onText?: (soFar: string) => void) {
  let text = '';
  try {
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? '';
      onText?.(text);
    }
    return { text, error: undefined as unknown };
  } catch (error) {
    return { text, error };
  }
}

describe('fake OpenAI server: success paths', () => {
  it('streams text chunks in order, with a role chunk first and a finish chunk last', async () => {
    server.enqueue({ text: 'Hello, streaming world!', chunkSize: 3 });
    const chunks = await collect(await client().chat.completions.create(streamed()));
    expect(contents(chunks)).toEqual(['Hel', 'lo,', ' st', 'rea', 'min', 'g w', 'orl', 'd!']);
    expect(contents(chunks).join('')).toBe('Hello, streaming world!');
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.finish_reason)).toEqual([...Array<null>(chunks.length - 1).fill(null), 'stop']);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gpt-4o-mini' && c.usage == null)).toBe(true);
  });

  it('sends a usage chunk (choices: []) only when stream_options.include_usage is set', async () => {
    server.enqueue({ text: 'abc', usage: { prompt_tokens: 11, completion_tokens: 7 }, finishReason: 'length' });
    const chunks = await collect(await client().chat.completions.create(streamed({ stream_options: { include_usage: true } })));
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(chunks[chunks.length - 2]!.choices[0]!.finish_reason).toBe('length');
  });

  it('answers non-streaming requests with a chat.completion, echoing by default', async () => {
    const r = await client().chat.completions.create(base);
    expect(r.object).toBe('chat.completion');
    expect(r.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'echo: hi there' });
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  });

  it('splits two parallel tool calls across chunks that accumulate by index to the exact calls', async () => {
    const args0 = JSON.stringify({ command: 'ls -la /tmp', cwd: '/home/u' });
    const args1 = JSON.stringify({ query: 'weather in "Paris"' });
    server.enqueue({
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_a', name: 'run_shell', arguments: args0 },
        { name: 'search', arguments: args1 },
      ],
      argChunkSize: 4,
    });
    const chunks = await collect(await client().chat.completions.create(streamed()));
    const acc: Array<{ id: string; name: string; args: string; pieces: number }> = [];
    for (const d of chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])) {
      const t = (acc[d.index] ??= { id: '', name: '', args: '', pieces: 0 });
      t.id += d.id ?? '';
      t.name += d.function?.name ?? '';
      if (d.function?.arguments) {
        t.args += d.function.arguments;
        t.pieces++;
      }
    }
    expect(acc.map(({ id, name, args }) => ({ id: id === 'call_a' ? id : 'generated', name, args }))).toEqual([
      { id: 'call_a', name: 'run_shell', args: args0 },
      { id: 'generated', name: 'search', args: args1 },
    ]);
    expect(acc[1]!.id).toMatch(/^call_/);
    expect(acc.map((t) => t.pieces)).toEqual([Math.ceil(args0.length / 4), Math.ceil(args1.length / 4)]);
    expect(contents(chunks).join('')).toBe('Let me check.');
    expect(chunks[chunks.length - 1]!.choices[0]!.finish_reason).toBe('tool_calls');

    // The SDK's own accumulator agrees (a protocol-conformance check).
    server.enqueue({ toolCalls: [{ id: 'call_b', name: 'search', arguments: args1 }] });
    const final = await client().chat.completions.stream(base).finalChatCompletion();
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_b', type: 'function', function: { name: 'search', arguments: args1 } },
    ]);
  });

  it('records request bodies and headers exactly, before replying (even for errors)', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'run_shell',
          description: 'Run a command',
          parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        },
      },
    ];
    const messages = [
      { role: 'system' as const, content: 'You are aish.' },
      { role: 'user' as const, content: 'first' },
      { role: 'assistant' as const, content: 'ok' },
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'second ' },
          { type: 'text' as const, text: 'question' },
        ],
      },
    ];
    server.enqueue({ status: 400 });
    await expect(client().chat.completions.create({ model: 'gpt-4.1', messages, tools, stream: true })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    const [req] = await server.waitForRequests(1);
    expect(req!.body).toEqual({ model: 'gpt-4.1', messages, tools, stream: true });
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe('Bearer test');
    expect(lastUserText(req!)).toBe('second question');
    expect(systemText(req!)).toBe('You are aish.');
    // models seen in requests are listed
    const models = [];
    for await (const m of client().models.list()) models.push(m.id);
    expect(models).toEqual(expect.arrayContaining(['gpt-4o-mini', 'gpt-4.1']));
  });

  it('serves queued replies FIFO, then fn/default replies; reset() clears both', async () => {
    server.enqueue({ text: 'one' }, { fn: (req, i) => ({ text: `two:${i}:${lastUserText(req)}` }) });
    server.setDefault((req) => ({ text: `default:${lastUserText(req)}` }));
    const say = async (t: string) =>
      (await client().chat.completions.create({ ...base, messages: [{ role: 'user', content: t }] })).choices[0]!.message.content;
    expect([await say('a'), await say('b'), await say('c')]).toEqual(['one', 'two:1:b', 'default:c']);
    server.enqueue({ text: 'stale' });
    server.reset();
    expect(server.requests).toEqual([]);
    expect(await say('d')).toBe('default:d');
    expect(server.requests).toHaveLength(1);
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    await expect(server.waitForRequests(5, 50)).rejects.toThrow(/only 1/);
  });

  it('paces chunks with firstChunkDelayMs and intervalMs (on a fake clock)', async () => {
    server.enqueue({ text: 'abcdef', chunkSize: 2, firstChunkDelayMs: 150, intervalMs: 60 });
    await withFakeClock(async (clock) => {
      // The headers come with the fake clock still at 0: no delay before them.
      const stream = await clock.settle(client({ maxRetries: 0 }).chat.completions.create(streamed()), 'the headers', { stepMs: 0 });
      expect(clock.now).toBe(0);
      const seenAt: number[] = [];
      const reading = (async () => {
        for await (const c of stream) if (c.choices[0]?.delta.content) seenAt.push(clock.now);
      })();
      await clock.settle(reading, 'the whole stream');
      // Chunk i is written after the first delay and i + 1 intervals: never seen before that.
      expect(seenAt).toHaveLength(3);
      seenAt.forEach((t, i) => expect(t, `chunk ${i}`).toBeGreaterThanOrEqual(150 + (i + 1) * 60));
    });
  });
});

describe('fake OpenAI server: failure modes as the SDK sees them', () => {
  it('401 → AuthenticationError, not retried', async () => {
    server.enqueue({ status: 401, error: { message: 'bad key', code: 'invalid_api_key' } });
    const err = await client()
      .chat.completions.create(streamed())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'invalid_api_key', message: '401 bad key' });
    expect(server.requests).toHaveLength(1);
  });

  it('429 three times with retry-after 0 → RateLimitError after exactly 3 requests (maxRetries 2)', async () => {
    server.enqueue({ status: 429 }, { status: 429 }, { status: 429 }, { text: 'never reached' });
    // retry-after: 0 is honoured: all three attempts happen with the fake clock standing still (the
    // SDK's default backoff, 0.5 s and more, would never elapse).
    const err = await withFakeClock((clock) =>
      clock.settle(
        client()
          .chat.completions.create(base)
          .catch((e: unknown) => e),
        'three attempts',
        { stepMs: 0 },
      ),
    );
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
  });

  it('500 as the default → InternalServerError after 3 requests; a transient 503 is retried to success', async () => {
    server.setDefault({ status: 500 });
    await expect(client().chat.completions.create(streamed())).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(server.requests).toHaveLength(3);
    server.reset();
    server.enqueue({ status: 503 }, { text: 'recovered' });
    const r = await client().chat.completions.create(base);
    expect(r.choices[0]!.message.content).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('hang before headers + timeout 300 → APIConnectionTimeoutError; timeouts are retried too', async () => {
    server.setDefault({ hang: 'before-headers' });
    // On a fake clock: the SDK's 300 ms timeouts and its backoff between retries pass without real waiting.
    await withFakeClock(async (clock) => {
      const err = await clock.settle(
        client({ timeout: 300, maxRetries: 0 })
          .chat.completions.create(streamed())
          .catch((e: unknown) => e),
        'the timeout',
        { stepMs: 50 },
      );
      expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
      expect(clock.now).toBeGreaterThanOrEqual(300);
      expect(server.requests).toHaveLength(1);
      // with the default maxRetries (2) the SDK makes 3 attempts
      server.reset();
      const again = await clock.settle(
        client({ timeout: 300 })
          .chat.completions.create(base)
          .catch((e: unknown) => e),
        'three timeouts',
        { stepMs: 50 },
      );
      expect(again).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
      expect(server.requests).toHaveLength(3);
    });
  });

  it('close() returns promptly with a hung connection open; the client gets APIConnectionError', async () => {
    server.enqueue({ hang: 'before-headers' });
    const pending = client({ maxRetries: 0 })
      .chat.completions.create(base)
      .catch((e: unknown) => e);
    await server.waitForRequests(1);
    await server.close(); // never resolves unless close() destroys the open sockets (the test then times out)
    const err = await pending;
    expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(err).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('user abort before headers → APIUserAbortError', async () => {
    server.enqueue({ hang: 'before-headers' });
    const ac = new AbortController();
    const pending = client()
      .chat.completions.create(streamed(), { signal: ac.signal })
      .catch((e: unknown) => e);
    await server.waitForRequests(1);
    ac.abort();
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(server.requests).toHaveLength(1); // aborts are not retried
  });

  it('mid-stream stall: the SDK timeout does not fire; abort ends iteration SILENTLY with the partial text', async () => {
    server.enqueue({ hang: 'mid-stream', text: 'partial text' }, { hang: 'mid-stream', text: 'partial text' });
    // The timeout covers only the wait for headers: a stall after them is never timed out by the SDK
    // (on a fake clock, ten times the timeout passes and the stream is still open).
    const { stalled, first, ended } = await withFakeClock(async (clock) => {
      const stalled = await clock.settle(client({ timeout: 100 }).chat.completions.create(streamed()), 'the headers', { stepMs: 0 });
      let ended = false;
      const first = drain(stalled).finally(() => (ended = true));
      await clock.advanceUntil(() => ended || clock.now >= 1000, '1 s of fake time', { stepMs: 50 });
      return { stalled, first, ended };
    });
    expect(ended).toBe(false);
    stalled.controller.abort(); // Stream.controller works too, with the same silent ending
    expect(await first).toEqual({ text: 'partial text', error: undefined });

    // Aborting the request's signal while awaiting the next chunk: the for-await loop just ends, no throw.
    const ac = new AbortController();
    const stream = await client().chat.completions.create(streamed(), { signal: ac.signal });
    const r = await drain(stream, (t) => t === 'partial text' && setTimeout(() => ac.abort(), 20));
    expect(r).toEqual({ text: 'partial text', error: undefined });
    expect(ac.signal.aborted).toBe(true); // so callers must check the signal to tell "aborted" from "finished"
  });

  it('mid-stream stall + abort via the chat.completions.stream() helper → APIUserAbortError instead', async () => {
    server.enqueue({ hang: 'mid-stream', text: 'partial text' });
    const ac = new AbortController();
    const r = await drain(
      client().chat.completions.stream(base, { signal: ac.signal }),
      (t) => t === 'partial text' && setTimeout(() => ac.abort(), 20),
    );
    expect(r.text).toBe('partial text');
    expect(r.error).toBeInstanceOf(OpenAI.APIUserAbortError);
  });

  it('cut stream → iteration THROWS a raw undici TypeError("terminated"), not an OpenAI error, after the partial text', async () => {
    // The SDK throws TypeError('terminated') with cause SocketError('other side closed', code UND_ERR_SOCKET):
    // not an OpenAI.APIError/APIConnectionError, and not retried. The partial text arrives first.
    server.enqueue({ cut: 'partial text' });
    const r = await drain(await client().chat.completions.create(streamed()));
    expect(r.text).toBe('partial text');
    expect(r.error).toBeInstanceOf(TypeError);
    expect(r.error).not.toBeInstanceOf(OpenAI.OpenAIError);
    expect(r.error).toMatchObject({ message: 'terminated', cause: { code: 'UND_ERR_SOCKET' } });
    // Non-streaming: the same TypeError from the body read (headers were already received), not retried.
    server.enqueue({ cut: 'partial text' });
    const err = await client()
      .chat.completions.create(base)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err).toMatchObject({ message: 'terminated' });
    expect(server.requests).toHaveLength(2);
  });

  it('invalid chunk → iteration throws the raw SyntaxError from JSON.parse, after the preceding text', async () => {
    server.enqueue({ invalidChunk: '{not json', before: 'ok so far' });
    const r = await drain(await client().chat.completions.create(streamed()));
    expect(r.text).toBe('ok so far');
    expect(r.error).toBeInstanceOf(SyntaxError);
    expect(r.error).not.toBeInstanceOf(OpenAI.OpenAIError);
    expect(server.requests).toHaveLength(1);
  });
});
