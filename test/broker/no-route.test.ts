/** A base URL without `/v1` (Ollama's usual slip) is reported as a wrong URL, not an unknown model. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Broker } from '../../src/broker/broker';
import { BrokerError } from '../../src/broker/errors';
import { resolvePreset } from '../../src/broker/presets';
import { useFakeOpenAI } from '../helpers/fake-server-suite';

const fake = useFakeOpenAI();
const msgs = [{ role: 'user' as const, content: 'hi' }];

async function failure(baseURL: string): Promise<BrokerError> {
  const preset = resolvePreset({ models: { local: { model: 'm', baseURL } } } as never, 'local', {});
  try {
    await new Broker(preset).stream(msgs);
  } catch (e) {
    if (e instanceof BrokerError) return e;
    throw e;
  }
  throw new Error('no failure');
}

/** A server with no chat route anywhere, answering 404 in the shape given. */
let plain: Server;
let plainURL = '';
const bodies: Record<string, [string, string]> = {
  '/go': ['text/plain', '404 page not found'],
  '/html': ['text/html', '<html><body><pre>Cannot POST /html/chat/completions</pre></body></html>'],
  '/fastapi': ['application/json', '{"detail":"Not Found"}'],
  '/empty': ['text/plain', ''],
  '/vllm': ['application/json', '{"object":"error","message":"The model `m` does not exist.","type":"NotFoundError","code":404}'],
  '/ollama': ['application/json', '{"error":{"message":"model \\"m\\" not found, try pulling it first","type":"api_error"}}'],
};
beforeAll(async () => {
  plain = createServer((req, res) => {
    const first = `/${(req.url ?? '').split('/')[1]}`;
    // A web UI that answers every path with its page; a static server that allows no POST.
    if (first === '/webui')
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>Welcome</body></html>');
    if (first === '/static') return void res.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
    const [type, body] = bodies[first] ?? ['text/plain', '404 page not found'];
    res.writeHead(404, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()));
  plainURL = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => plain.close(() => r())));

describe('404 for /chat/completions: no such route or no such model', () => {
  it('a base URL missing /v1 on a server that serves /v1: names the URL that answers', async () => {
    const root = fake.server.url.replace(/\/v1$/, '');
    const e = await failure(root);
    expect(e.kind).toBe('no-route');
    expect(e.message).toBe(
      `${root} has no /chat/completions (404): Unknown request URL: POST /chat/completions — it answers at ${root}/v1: set models.local.baseURL to '${root}/v1'`,
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it.each(['/go', '/html', '/fastapi', '/empty'])('a plain %s 404 with no /v1 anywhere: check the base URL', async (path) => {
    const e = await failure(plainURL + path);
    expect(e.kind).toBe('no-route');
    expect(e.message).toMatch(new RegExp(`^${plainURL}${path} has no /chat/completions \\(404\\)`));
    expect(e.message).toMatch(
      / — check models\.local\.baseURL \(OpenAI-compatible servers serve it under …\/v1, e\.g\. http:\/\/127\.0\.0\.1:11434\/v1 for Ollama\)$/,
    );
  });

  it.each([
    ['the full endpoint pasted', '/v1/chat/completions'],
    ["Ollama's native /api", '/api'],
    ['another version', '/v2'],
    ['the models route', '/v1/models'],
    ['a trailing slash', '/'],
  ])('%s (%s) on a server that serves /v1: names the URL that answers', async (_what, path) => {
    const root = fake.server.url.replace(/\/v1$/, '');
    const e = await failure(root + path);
    expect(e.kind).toBe('no-route');
    expect(e.message).toMatch(new RegExp(` — it answers at ${root}/v1: set models\\.local\\.baseURL to '${root}/v1'$`));
    expect(fake.server.requests).toHaveLength(0);
  });

  it('a web page where the API should be (status 200, HTML) is a wrong base URL, not a cut answer', async () => {
    const e = await failure(`${plainURL}/webui`);
    expect(e.kind).toBe('no-route');
    expect(e.message).toBe(
      `${plainURL}/webui answers /chat/completions with a web page, not the API — check models.local.baseURL (OpenAI-compatible servers serve it under …/v1, e.g. http://127.0.0.1:11434/v1 for Ollama)`,
    );
  });

  it('a URL from OPENAI_BASE_URL: the fix names OPENAI_BASE_URL, not a config key the user never wrote', async () => {
    const root = fake.server.url.replace(/\/v1$/, '');
    const preset = resolvePreset({ models: { fast: { model: 'm' } } } as never, 'fast', { OPENAI_BASE_URL: root, OPENAI_API_KEY: 'k' });
    const e = await new Broker(preset).stream(msgs).then(
      () => null,
      (err: unknown) => err as BrokerError,
    );
    expect(e?.message).toMatch(new RegExp(` — it answers at ${root}/v1: set OPENAI_BASE_URL to '${root}/v1'$`));
  });

  it.each(['localhost:11434/v1', ' http://127.0.0.1:11434/v1', 'ftp://x/v1'])(
    'OPENAI_BASE_URL=%j is a usage error naming the variable, not a network error',
    (url) => {
      expect(() => resolvePreset({ models: { fast: { model: 'm' } } } as never, 'fast', { OPENAI_BASE_URL: url })).toThrow(
        `OPENAI_BASE_URL must be an http:// or https:// URL (got ${JSON.stringify(url)}), e.g. http://127.0.0.1:11434/v1`,
      );
    },
  );

  it('https:// to a server that speaks plain HTTP names the http:// URL to set', async () => {
    const https = fake.server.url.replace(/^http:/, 'https:');
    const e = await failure(https);
    expect(e.kind).toBe('unreachable');
    expect(e.message).toMatch(
      new RegExp(`^${https} does not speak HTTPS \\(ERR_SSL_\\w+\\) — set models\\.local\\.baseURL to '${fake.server.url}'$`),
    );
  });

  it('a 405 for the POST is a missing route too', async () => {
    const e = await failure(`${plainURL}/static`);
    expect(e.kind).toBe('no-route');
    expect(e.message).toMatch(
      new RegExp(`^${plainURL}/static has no /chat/completions \\(405\\): Method Not Allowed — check models\\.local\\.baseURL`),
    );
  });

  it.each(['/vllm', '/ollama'])('a %s-shaped model 404 is still an unknown model', async (path) => {
    const e = await failure(plainURL + path);
    expect(e.kind).toBe('unknown-model');
    expect(e.message).toMatch(/^model "m" not found at .* — check models\.local\.model, or pick another with :model$/);
  });

  it("the fake server's own unknown-model 404 stays an unknown model", async () => {
    fake.server.enqueue({ status: 404 });
    const e = await failure(fake.server.url);
    expect(e.kind).toBe('unknown-model');
  });
});

describe('413', () => {
  it('a request too large for the server says so and what to send instead', async () => {
    fake.server.enqueue({ status: 413, error: { message: 'request entity too large' } });
    const e = await failure(fake.server.url);
    expect(e.message).toBe(
      `${fake.server.url} refused the request as too large (413): request entity too large — send less: a smaller file or input, or :clear`,
    );
  });
});
