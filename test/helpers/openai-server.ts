// A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol (JSON and SSE),
// so tests exercise the real `openai` SDK end to end instead of mocking it.
//
// SDK facts tests must plan for (openai@6, verified in test/helpers-tests/openai-server.test.ts):
// - The SDK retries 408/409/429/>=500 and connection errors/timeouts, `maxRetries` 2 by default,
//   so an error that should survive the retries must be enqueued 3 times (or set as the default).
// - Retryable error replies get `retry-after: 0` unless `headers` is given, so retries are instant.
// - The SDK `timeout` only covers the wait for response headers; a stream stalled after the
//   headers is never timed out by the SDK.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fakeEmbeddings, type FakeEmbeddings } from './openai-embeddings';

/** A tool call in an assistant message, as the SDK sends it. */
interface RecordedToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

/** One message of a recorded request. aish sends every content as a string (null beside tool calls). */
interface RecordedMessage {
  role: string;
  content: string;
  tool_calls?: RecordedToolCall[];
  tool_call_id?: string;
  [field: string]: unknown;
}

/**
 * A chat-completions request body as tests read it. Only the shape aish sends is typed; the server
 * itself never trusts it (see messagesOf), and any other field is there as `unknown`.
 */
interface RecordedBody {
  model: string;
  messages: RecordedMessage[];
  stream?: boolean;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; null when absent or not JSON, which a chat request from the SDK never is. */
  body: RecordedBody;
  receivedAt: number;
  streamEndedAt?: number; // Date.now() once a streamed reply has been completely written (benchmarks)
}

type UsageSpec = { prompt_tokens: number; completion_tokens: number };
export type TextReply = {
  text: string;
  chunkSize?: number; // chars per SSE chunk, default 4
  intervalMs?: number; // delay between chunks, default 0
  chunksPerTick?: number; // chunks written per intervalMs wait, default 1 (timers have ~1 ms granularity)
  usage?: UsageSpec | false; // default: rough estimate; false = never send usage
  finishReason?: string | null; // default 'stop'; null = never send one (a stream that ends unfinished)
  firstChunkDelayMs?: number; // delay after the headers, before the first chunk (time to first token)
};
type ToolCallsReply = {
  toolCalls: Array<{ id?: string; name: string; arguments: string }>;
  text?: string; // content streamed before the calls
  argChunkSize?: number; // default 5
};
type ErrorReply = {
  status: number;
  error?: { message: string; type?: string; code?: string | null };
  headers?: Record<string, string>;
  /** The body as sent, instead of `{"error": …}` (a proxy's HTML page, another server's JSON shape). */
  body?: string;
  contentType?: string;
};
export type Reply =
  | TextReply
  | ToolCallsReply
  | ErrorReply
  | { hang: 'before-headers' }
  | { hang: 'mid-stream'; text: string }
  | { cut: string }
  | { invalidChunk: string; before?: string }
  | { fn: (req: RecordedRequest, index: number) => Reply | Promise<Reply> };

type DefaultReply = Reply | ((req: RecordedRequest) => Reply);

export interface FakeOpenAI {
  url: string; // e.g. http://127.0.0.1:43567/v1
  port: number;
  requests: RecordedRequest[]; // chat-completions requests only, in arrival order
  embeddings: FakeEmbeddings; // POST /v1/embeddings: its concept table, delay, failures and requests
  enqueue(...replies: Reply[]): void;
  setDefault(reply: DefaultReply): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  reset(): void; // clears the queue and the recorded requests (the default reply stays)
  close(): Promise<void>;
}

type Msg = { role?: unknown; content?: unknown };

function messagesOf(req: RecordedRequest): Msg[] {
  const m: unknown = (req.body as unknown as { messages?: unknown } | null)?.messages;
  return Array.isArray(m) ? (m as Msg[]) : [];
}

/** Text of a message content: a string, or the text parts of a content-part array. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: unknown) => (p && typeof p === 'object' && 'text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}

export function lastUserText(req: RecordedRequest): string {
  const user = messagesOf(req).filter((m) => m.role === 'user');
  return contentText(user[user.length - 1]?.content);
}

/**
 * The last user message of each request, once `n` have come and `quietMs` more passed without
 * more: a doubled submit shows up as an extra request by then.
 */
export async function promptsReceived(
  server: Pick<FakeOpenAI, 'waitForRequests' | 'requests'>,
  n: number,
  quietMs = 300,
): Promise<string[]> {
  await server.waitForRequests(n);
  await new Promise((r) => setTimeout(r, quietMs));
  return server.requests.map((r) => lastUserText(r));
}

export function systemText(req: RecordedRequest): string {
  return contentText(messagesOf(req).find((m) => m.role === 'system')?.content);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function pieces(s: string, size: number): string[] {
  const n = Math.max(1, Math.floor(size));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

const DEFAULT_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Bad request.', type: 'invalid_request_error', code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { message: 'Permission denied.', type: 'invalid_request_error', code: 'permission_denied' },
  404: { message: 'The model does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' },
  429: { message: 'Rate limit reached.', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request.', type: 'server_error', code: null },
  503: { message: 'The engine is currently overloaded.', type: 'server_error', code: null },
};

function sendError(res: ServerResponse, r: ErrorReply): void {
  const d = DEFAULT_ERRORS[r.status] ?? { message: `HTTP ${r.status}`, type: 'api_error', code: null };
  const retryable = r.status === 408 || r.status === 409 || r.status === 429 || r.status >= 500;
  const headers = r.headers ?? (retryable ? { 'retry-after': '0' } : {});
  const error = { message: r.error?.message ?? d.message, type: r.error?.type ?? d.type, code: r.error?.code ?? d.code, param: null };
  res.writeHead(r.status, { 'content-type': r.contentType ?? 'application/json', ...headers });
  res.end(r.body ?? JSON.stringify({ error }));
}

let seq = 0;

/** Writes one reply to one chat-completions request; never throws if the client goes away. */
async function respond(req: RecordedRequest, res: ServerResponse, reply: Reply): Promise<void> {
  if ('status' in reply) return sendError(res, reply);
  if ('hang' in reply && reply.hang === 'before-headers') return; // the socket stays open until someone closes it
  const body = (req.body ?? {}) as { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } };
  const model = typeof body.model === 'string' ? body.model : 'gpt-4o-mini';
  const id = `chatcmpl-fake${++seq}`;
  const created = Math.floor(Date.now() / 1000);
  const promptTokens = Math.max(1, Math.ceil(JSON.stringify(body).length / 4));
  let closed = false;
  res.on('close', () => (closed = true));
  const live = () => !closed && !res.destroyed && !res.writableEnded;

  const text = 'text' in reply ? (reply.text ?? '') : 'cut' in reply ? reply.cut : 'before' in reply ? (reply.before ?? '') : '';
  const calls = 'toolCalls' in reply ? reply.toolCalls.map((c, i) => ({ ...c, id: c.id ?? `call_${seq}_${i}` })) : [];
  const finish = calls.length
    ? 'tool_calls'
    : 'finishReason' in reply
      ? reply.finishReason === undefined
        ? 'stop'
        : reply.finishReason
      : 'stop';
  const usageSpec = 'usage' in reply ? reply.usage : undefined;
  const completionTokens = Math.max(1, Math.ceil((text.length + calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0)) / 4));
  const usage =
    usageSpec === false
      ? undefined
      : usageSpec
        ? { ...usageSpec, total_tokens: usageSpec.prompt_tokens + usageSpec.completion_tokens }
        : { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };

  if (body.stream !== true) {
    const message = {
      role: 'assistant',
      content: calls.length && !text ? null : text,
      refusal: null,
      ...(calls.length
        ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
        : {}),
    };
    const json = JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    if ('hang' in reply) return void res.write(json.slice(0, json.length >> 1)); // mid-stream: half a body, then stall
    if ('cut' in reply) return void res.write(json.slice(0, json.length >> 1), () => res.socket?.destroy());
    return void res.end('invalidChunk' in reply ? reply.invalidChunk : json);
  }

  // Streaming: mirror OpenAI's chunk shapes (role first, content deltas, finish chunk, optional usage chunk, [DONE]).
  const includeUsage = body.stream_options?.include_usage === true;
  let flushed = Promise.resolve(); // settles once the latest write has been handed to the socket
  const send = (data: string) => {
    if (live()) flushed = new Promise((r) => res.write(`data: ${data}\n\n`, () => r()));
  };
  const chunk = (delta: object, finish_reason: string | null = null) =>
    send(
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason }],
        ...(includeUsage ? { usage: null } : {}),
      }),
    );
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const firstDelay = 'firstChunkDelayMs' in reply ? (reply.firstChunkDelayMs ?? 0) : 0;
  if (firstDelay > 0) await sleep(firstDelay);
  const interval = 'intervalMs' in reply ? (reply.intervalMs ?? 0) : 0;
  const gap = async () => {
    if (interval > 0) await sleep(interval);
  };

  chunk({ role: 'assistant', content: calls.length && !text ? null : '', refusal: null });
  const chunkSize = 'chunkSize' in reply ? (reply.chunkSize ?? 4) : 4;
  const perTick = 'chunksPerTick' in reply ? Math.max(1, Math.floor(reply.chunksPerTick ?? 1)) : 1;
  for (const [i, p] of pieces(text, chunkSize).entries()) {
    if (i % perTick === 0) await gap();
    if (!live()) return;
    chunk({ content: p });
  }
  const argSize = 'argChunkSize' in reply ? (reply.argChunkSize ?? 5) : 5;
  for (const [index, c] of calls.entries()) {
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const p of pieces(c.arguments, argSize)) {
      await gap();
      if (!live()) return;
      chunk({ tool_calls: [{ index, function: { arguments: p } }] });
    }
  }
  if ('hang' in reply) return; // mid-stream: headers and text sent, the stream never ends
  if ('cut' in reply) {
    // Let the written chunks reach the client, then drop the connection without a terminating chunk.
    await flushed;
    res.socket?.destroy();
    return;
  }
  if ('invalidChunk' in reply) send(reply.invalidChunk);
  else {
    chunk({}, finish);
    if (includeUsage && usage)
      send(JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices: [], usage }));
  }
  send('[DONE]');
  if (live()) res.end();
  req.streamEndedAt = Date.now();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeOpenAI(opts: { defaultReply?: DefaultReply } = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const models = new Set<string>(['gpt-4o-mini', 'gpt-4o']);
  const sockets = new Set<Socket>();
  const embeddings = fakeEmbeddings();
  let waiters: Array<{ n: number; resolve: () => void; reject: (e: Error) => void }> = [];
  let fallback: DefaultReply = opts.defaultReply ?? ((req) => ({ text: 'echo: ' + lastUserText(req) }));

  const notify = () => {
    for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [...models].map((id) => ({ id, object: 'model', created: 0, owned_by: 'system' })) }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/embeddings') return embeddings.handle(raw, res);
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendError(res, { status: 404, error: { message: `Unknown request URL: ${req.method} ${path}`, code: 'unknown_url' } });
    }
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      // Not JSON: recorded as null.
    }
    const rec: RecordedRequest = {
      method: req.method,
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: body as RecordedBody,
      receivedAt: Date.now(),
    };
    const index = requests.push(rec) - 1; // recorded before replying, so tests can assert on it even for errors
    const model = (body as { model?: unknown } | null)?.model;
    if (typeof model === 'string') models.add(model);
    notify();
    let reply: Reply = queue.shift() ?? (typeof fallback === 'function' ? fallback(rec) : fallback);
    while ('fn' in reply) reply = await reply.fn(rec, index);
    await respond(rec, res, reply);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // A broken script (e.g. a throwing fn) surfaces as a 500 the test can see, not a silent hang.
      if (!res.headersSent)
        sendError(res, { status: 500, error: { message: `fake server: ${String(e)}` }, headers: { 'x-should-retry': 'false' } });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve()); // loopback only, random port
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    embeddings,
    enqueue: (...replies) => void queue.push(...replies),
    setDefault: (reply) => void (fallback = reply),
    waitForRequests(n, timeoutMs = 5000) {
      if (requests.length >= n) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const w = {
          n,
          resolve: () => done(() => resolve(requests.slice())),
          reject: (e: Error) => done(() => reject(e)),
        };
        const timer = setTimeout(
          () => w.reject(new Error(`waitForRequests(${n}): only ${requests.length} after ${timeoutMs}ms`)),
          timeoutMs,
        );
        const done = (f: () => void) => {
          clearTimeout(timer);
          waiters = waiters.filter((x) => x !== w);
          f();
        };
        waiters.push(w);
      });
    },
    reset() {
      queue.length = 0;
      requests.length = 0; // in place, so references held by tests stay live
      embeddings.reset();
    },
    async close() {
      for (const w of [...waiters]) w.reject(new Error('fake OpenAI server closed'));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy(); // hung and keep-alive connections would otherwise block close()
      await closed;
    },
  };
}
