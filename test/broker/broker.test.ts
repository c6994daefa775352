import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { Broker } from '../../src/broker/broker';
import { BrokerError } from '../../src/broker/errors';
import { resolvePreset, type ResolvedPreset } from '../../src/broker/presets';
import type { ChatMessage } from '../../src/broker/types';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { validateConfig } from '../../src/config/validate';
import { withFakeClock } from '../helpers/fake-clock';
import { closedPort } from '../helpers/ports';

const fake = useFakeOpenAI();

const msgs: ChatMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'hi' },
];

function preset(over: Partial<ResolvedPreset> = {}): ResolvedPreset {
  return {
    name: 'fast',
    model: 'gpt-4o-mini',
    baseURL: fake.server.url,
    apiKey: 'sk-abcdef123456',
    keySource: '$OPENAI_API_KEY',
    timeoutMs: 2000,
    ...over,
  };
}

async function failure(p: Promise<unknown>): Promise<BrokerError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(BrokerError);
    return err as BrokerError;
  }
  throw new Error('expected a BrokerError');
}

describe('Broker.stream', () => {
  it('streams text in order and reports usage', async () => {
    fake.server.enqueue({ text: 'one two three four', chunkSize: 2, usage: { prompt_tokens: 11, completion_tokens: 4 } });
    const pieces: string[] = [];
    const r = await new Broker(preset()).stream(msgs, { onText: (t) => pieces.push(t) });
    expect(pieces.join('')).toBe('one two three four');
    expect(pieces.length).toBeGreaterThan(3);
    expect(r).toEqual({
      content: 'one two three four',
      toolCalls: [],
      finishReason: 'stop',
      interrupted: false,
      usage: { promptTokens: 11, completionTokens: 4 },
    });
    const body = fake.server.requests[0]!.body;
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: msgs });
  });

  it('accumulates tool-call deltas split across chunks', async () => {
    fake.server.enqueue({
      toolCalls: [
        { id: 'call_a', name: 'run_command', arguments: '{"command":"ls -la /tmp"}' },
        { id: 'call_b', name: 'everything__get-sum', arguments: '{"a":20,"b":22}' },
      ],
      argChunkSize: 3,
    });
    const tools = [{ type: 'function' as const, function: { name: 'run_command', parameters: { type: 'object' } } }];
    const r = await new Broker(preset()).stream(msgs, { tools });
    expect(r.finishReason).toBe('tool_calls');
    expect(r.toolCalls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls -la /tmp"}' } },
      { id: 'call_b', type: 'function', function: { name: 'everything__get-sum', arguments: '{"a":20,"b":22}' } },
    ]);
    expect(fake.server.requests[0]!.body.tools).toEqual(tools);
  });

  it('keeps partial text when the user aborts', async () => {
    fake.server.enqueue({ hang: 'mid-stream', text: 'partial answ' });
    const ac = new AbortController();
    const got: string[] = [];
    const r = await new Broker(preset()).stream(msgs, {
      signal: ac.signal,
      onText: (t) => {
        got.push(t);
        if (got.join('') === 'partial answ') ac.abort();
      },
    });
    expect(r).toMatchObject({ content: 'partial answ', interrupted: true });
  });

  it.each([
    [
      '401',
      { status: 401, error: { message: 'Incorrect API key provided: sk-abcdef123456' } },
      'auth',
      /refused the API key \(401\): Incorrect API key provided: \[key\] — check \$OPENAI_API_KEY$/,
    ],
    ['403', { status: 403 }, 'permission', /denied access \(403\)/],
    [
      '404',
      { status: 404, error: { message: "The model 'nope' does not exist" } },
      'unknown-model',
      /model "gpt-4o-mini" not found at .* \(404\)/,
    ],
    [
      '400',
      { status: 400, error: { message: 'context length exceeded' } },
      'rejected',
      /rejected the request \(400\): context length exceeded$/,
    ],
  ])('%s becomes one clear line', async (_n, reply, kind, re) => {
    fake.server.enqueue(reply);
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe(kind);
    expect(e.message).toMatch(re);
    expect(e.message).not.toContain('\n');
    expect(e.message).not.toContain('sk-abcdef123456');
  });

  it('429 after the SDK retries', async () => {
    fake.server.enqueue({ status: 429 }, { status: 429 }, { status: 429 });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('rate-limit');
    expect(e.message).toMatch(/^rate limited by .* \(429\) after retries.* — wait a moment and try again$/);
    expect(fake.server.requests).toHaveLength(3);
  });

  it('reports each retry before waiting for it: the attempt, of how many, and the wait', async () => {
    fake.server.enqueue(
      { status: 500, headers: { 'retry-after-ms': '30' } },
      { status: 503, headers: { 'retry-after-ms': '40' } },
      { text: 'third time' },
    );
    const retries: unknown[] = [];
    const r = await new Broker(preset()).stream(msgs, { onRetry: (n) => retries.push(n) });
    expect(r.content).toBe('third time');
    expect(retries).toEqual([
      { attempt: 2, of: 3, waitMs: 30 },
      { attempt: 3, of: 3, waitMs: 40 },
    ]);
  });

  it('Ctrl-C during a retry wait returns at once, as interrupted', async () => {
    fake.server.enqueue({ status: 429, headers: { 'retry-after': '10' } }, { text: 'never reached' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await new Broker(preset()).stream(msgs, { signal: ac.signal });
    // Had the wait ignored the abort, the second (text) reply would have been fetched and returned.
    expect(r.interrupted).toBe(true);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a retry-after beyond the cap is reported instead of waited for, as not retried', async () => {
    fake.server.enqueue({ status: 429, headers: { 'retry-after': '3600' } });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('rate-limit');
    expect(e.message).toBe(
      `rate limited by ${fake.server.url} (429): Rate limit reached; it asks to wait 60 min, longer than aish waits (20 s) — not retried`,
    );
    expect(e.retryAfterMs).toBe(3_600_000);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a retry-after beyond the cap after a retry says how many were made', async () => {
    fake.server.enqueue({ status: 429 }, { status: 429, headers: { 'retry-after': '90' } });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.message).toBe(
      `rate limited by ${fake.server.url} (429): Rate limit reached; it asks to wait 90 s, longer than aish waits (20 s) — not retried again (after 1 retry)`,
    );
    expect(fake.server.requests).toHaveLength(2);
  });

  it('a server error whose retry-after is beyond the cap: the same words', async () => {
    fake.server.enqueue({ status: 503, headers: { 'retry-after': '120' } });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('server');
    expect(e.message).toBe(
      `server error 503 from ${fake.server.url}: The engine is currently overloaded; it asks to wait 2 min, longer than aish waits (20 s) — not retried`,
    );
    expect(fake.server.requests).toHaveLength(1);
  });

  it('an error event inside the stream: a bad key fails at once as auth; an unknown one is not retried either', async () => {
    fake.server.setDefault({
      invalidChunk: JSON.stringify({
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      }),
    });
    const auth = await failure(new Broker(preset()).stream(msgs));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toContain('Incorrect API key provided');
    expect(fake.server.requests).toHaveLength(1);
    fake.server.reset();
    fake.server.setDefault({
      invalidChunk: JSON.stringify({ error: { message: 'context window exceeded', type: 'invalid_request_error' } }),
    });
    const other = await failure(new Broker(preset()).stream(msgs));
    expect(other.kind).toBe('rejected');
    expect(other.message).toContain('reported an error during the answer: context window exceeded');
    expect(fake.server.requests).toHaveLength(1);
    fake.server.reset();
    fake.server.enqueue(
      { invalidChunk: JSON.stringify({ error: { message: 'overloaded', type: 'overloaded_error' } }) },
      { text: 'fine now' },
    );
    // overloaded is a rate limit: retried, after the SDK's backoff (on a fake clock, so no real wait)
    const retried = await withFakeClock((clock) => clock.settle(new Broker(preset()).stream(msgs), 'the retry', { stepMs: 50 }));
    expect(retried.content).toBe('fine now');
    expect(fake.server.requests).toHaveLength(2);
  });

  it('500 after retries', async () => {
    fake.server.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('server');
    expect(e.message).toMatch(/^server error 500 from /);
  });

  it('a cut stream keeps the partial answer', async () => {
    fake.server.enqueue({ cut: 'the beginning' });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('cut');
    expect(e.partial).toBe('the beginning');
    expect(e.message).toMatch(/dropped mid-answer; partial answer kept/);
  });

  it('an invalid chunk is a protocol error', async () => {
    fake.server.enqueue({ invalidChunk: '{not json', before: 'ok so far' });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('protocol');
    expect(e.partial).toBe('ok so far');
    expect(e.message).toMatch(/^unreadable data from /);
  });

  it('a stream that ends without finishing is reported as cut', async () => {
    fake.server.enqueue({ text: 'no end', finishReason: null });
    const e = await failure(new Broker(preset()).stream(msgs));
    expect(e.kind).toBe('cut');
    expect(e.partial).toBe('no end');
  });
});

// The broker's timers (no-answer, idle, retry waits) on a fake clock: each check is about the delay
// the broker asks for, and none of them waits in real time.
describe('Broker.stream timers', () => {
  it('a server that never answers times out once, without retries', async () => {
    fake.server.enqueue({ hang: 'before-headers' });
    const e = await withFakeClock((clock) => failure(clock.settle(new Broker(preset({ timeoutMs: 300 })).stream(msgs), 'the timeout')));
    expect(e.kind).toBe('timeout');
    expect(e.message).toBe(`no answer from ${fake.server.url} within 300 ms — check the server, or raise models.fast.timeoutMs`);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a stream that stalls mid-answer is caught by the idle timer, partial text kept', async () => {
    fake.server.enqueue({ hang: 'mid-stream', text: 'half of it' });
    const e = await withFakeClock((clock) => failure(clock.settle(new Broker(preset({ timeoutMs: 300 })).stream(msgs), 'the idle timer')));
    expect(e.kind).toBe('stalled');
    expect(e.partial).toBe('half of it');
    expect(e.message).toMatch(/stalled for 300 ms; partial answer kept/);
  });

  it('a stream slower in all than the idle timeout, but never idle that long, is not stalled', async () => {
    // Every chunk pushes the idle timer back (the same timer, refreshed).
    fake.server.enqueue({ text: 'one two three four', chunkSize: 4, intervalMs: 200 });
    const r = await withFakeClock(async (clock) => {
      const out = await clock.settle(new Broker(preset({ timeoutMs: 300 })).stream(msgs), 'the answer');
      expect(clock.now).toBeGreaterThan(900);
      return out;
    });
    expect(r.content).toBe('one two three four');
  });

  it('a 429 is retried only after the wait its retry-after asks for', async () => {
    fake.server.enqueue({ status: 429, headers: { 'retry-after': '3' } }, { text: 'after the wait' });
    await withFakeClock(async (clock) => {
      const answer = new Broker(preset({ timeoutMs: 60_000 })).stream(msgs);
      await clock.advanceUntil(() => fake.server.requests.length >= 2, 'the retry', { stepMs: 50 });
      // The retry cannot reach the server before the fake clock passes 3 s (a default backoff would be
      // well under 1 s).
      expect(clock.now).toBeGreaterThanOrEqual(3000);
      expect((await clock.settle(answer, 'the answer')).content).toBe('after the wait');
    });
  });

  it('an unreachable server names the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const e = await withFakeClock((clock) =>
      failure(clock.settle(new Broker(preset({ baseURL: url })).stream(msgs), 'the retries', { stepMs: 50 })),
    );
    expect(e.kind).toBe('unreachable');
    expect(e.message).toBe(`cannot reach ${url} (connection refused) — is the server running, and is the base URL right?`);
  });

  it('retry waits do not turn a refused connection into a timeout', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    await withFakeClock(async (clock) => {
      const e = await failure(
        clock.settle(new Broker(preset({ baseURL: url, timeoutMs: 300 })).stream(msgs), 'the retries', { stepMs: 50 }),
      );
      expect(e.kind).toBe('unreachable');
      expect(clock.now).toBeGreaterThan(300); // the retry waits were longer than the no-answer timer
    });
  });
});

describe('generation settings', () => {
  /** A preset as a config file would write it, through validation and resolution, as the broker gets it. */
  const configured = (settings: Record<string, unknown>, model = 'llama3.1:8b') =>
    resolvePreset(validateConfig({ models: { local: { model, baseURL: fake.server.url, ...settings } } }, 'c.ts'), 'local', {});

  it('maxTokens, temperature, topP and extraBody reach the request body exactly as configured', async () => {
    fake.server.enqueue({ text: 'ok' });
    const extraBody = { repetition_penalty: 1.1, top_k: 40, options: { num_ctx: 8192 } };
    await new Broker(configured({ maxTokens: 512, temperature: 0.3, topP: 0.9, extraBody })).stream(msgs);
    const body = fake.server.requests[0]!.body;
    expect(body).toMatchObject({
      model: 'llama3.1:8b',
      max_tokens: 512,
      temperature: 0.3,
      top_p: 0.9,
      ...extraBody,
      messages: msgs,
      stream: true,
    });
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it("none configured: none sent (the server's own defaults apply)", async () => {
    fake.server.enqueue({ text: 'ok' });
    await new Broker(configured({})).stream(msgs);
    const keys = Object.keys(fake.server.requests[0]!.body).sort();
    expect(keys).toEqual(['messages', 'model', 'stream', 'stream_options']);
  });

  it('OpenAI reasoning models get max_completion_tokens; maxTokensParam chooses either way', async () => {
    fake.server.setDefault({ text: 'ok' });
    await new Broker(configured({ maxTokens: 100 }, 'o3-mini')).stream(msgs);
    await new Broker(configured({ maxTokens: 100 }, 'gpt-5')).stream(msgs);
    await new Broker(configured({ maxTokens: 100, maxTokensParam: 'max_completion_tokens' })).stream(msgs);
    await new Broker(configured({ maxTokens: 100, maxTokensParam: 'max_tokens' }, 'o4-mini')).stream(msgs);
    const fields = fake.server.requests.map((r) => ['max_tokens', 'max_completion_tokens'].filter((k) => k in r.body));
    expect(fields).toEqual([['max_completion_tokens'], ['max_completion_tokens'], ['max_completion_tokens'], ['max_tokens']]);
    expect(fake.server.requests[0]!.body.max_completion_tokens).toBe(100);
  });

  it('extraBody cannot replace what aish sends (stream_options included)', async () => {
    fake.server.enqueue({ text: 'ok' });
    await new Broker(configured({ temperature: 0.5, extraBody: { temperature: 1.5, stream_options: { include_usage: false } } })).stream(
      msgs,
    );
    expect(fake.server.requests[0]!.body).toMatchObject({ temperature: 0.5, stream_options: { include_usage: true } });
  });
});

describe('presets', () => {
  it('uses OPENAI_BASE_URL and OPENAI_API_KEY with no config', () => {
    const p = resolvePreset(DEFAULT_CONFIG, 'fast', { OPENAI_BASE_URL: 'http://h/v1/', OPENAI_API_KEY: 'k' });
    expect(p).toMatchObject({ model: 'gpt-4o-mini', baseURL: 'http://h/v1', apiKey: 'k' });
  });

  it('gives local servers a placeholder key, and OpenAI itself none', async () => {
    expect(resolvePreset(DEFAULT_CONFIG, 'fast', { OPENAI_BASE_URL: 'http://localhost:11434/v1' }).apiKey).toBe('sk-no-key-required');
    const openai = resolvePreset(DEFAULT_CONFIG, 'fast', {});
    expect(openai.apiKey).toBeUndefined();
    const e = await failure(new Broker(openai).stream(msgs));
    expect(e.kind).toBe('no-key');
    expect(e.exitCode).toBe(2); // a configuration error
    expect(e.message).toBe('no API key for https://api.openai.com/v1 — set OPENAI_API_KEY, or apiKeyEnv in models.fast');
  });
});
