// `POST /v1/embeddings` for the fake OpenAI server: deterministic vectors from a concept table the
// test defines. Each concept is one dimension; a text's vector counts the words of the text that
// belong to each concept, so two texts with no word in common are still "close" when their words
// share concepts (a paraphrase), and unrelated texts are nearly orthogonal.
import type { ServerResponse } from 'node:http';

interface EmbeddingRequest {
  model: string;
  input: string[];
  encodingFormat: string | undefined;
  /** `dimensions` as sent, when it was. */
  dimensions?: unknown;
  receivedAt: number;
}

export interface FakeEmbeddings {
  /** Concept → the words that mean it (lower case). Order fixes the dimensions. Assign a new table to change it. */
  concepts: Record<string, string[]>;
  /** Zero dimensions added after the concepts (change it to change the vectors' dimension). */
  extraDims: number;
  /** Wait this long before answering each request. */
  delayMs: number;
  /** The next this-many requests get a 500 (not retried by aish's embedder). */
  failNext: number;
  /** Every embeddings request, in arrival order (failed ones too). */
  requests: EmbeddingRequest[];
  /** The vector the server gives `text` (for tests' arithmetic). */
  vector(text: string): number[];
  /** Resolves once `n` requests have come. */
  waitForRequests(n: number, timeoutMs?: number): Promise<EmbeddingRequest[]>;
  reset(): void;
}

/** Keeps dimension of a text that has no concept at all from being a zero vector. */
const BIAS = 0.1;

export function fakeEmbeddings(): FakeEmbeddings & { handle(raw: string, res: ServerResponse): Promise<void> } {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  // word → its concepts' dimensions, made again whenever a new table is assigned
  let table: Record<string, string[]> | null = null;
  let dims = { size: 0, of: new Map<string, number[]>() };
  const lookup = () => {
    if (table === e.concepts) return dims;
    table = e.concepts;
    const of = new Map<string, number[]>();
    Object.values(table).forEach((ws, d) => ws.forEach((w) => of.set(w, [...(of.get(w) ?? []), d])));
    return (dims = { size: Object.keys(table).length, of });
  };
  const e = {
    concepts: {} as Record<string, string[]>,
    extraDims: 0,
    delayMs: 0,
    failNext: 0,
    requests: [] as EmbeddingRequest[],
    vector(text: string): number[] {
      const dims = lookup();
      const v = new Array<number>(dims.size + e.extraDims + 1).fill(0);
      v[v.length - 1] = BIAS;
      for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) for (const d of dims.of.get(w) ?? []) v[d]!++;
      return v;
    },
    waitForRequests(n: number, timeoutMs = 10_000): Promise<EmbeddingRequest[]> {
      if (e.requests.length >= n) return Promise.resolve(e.requests.slice());
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`embeddings: only ${e.requests.length} of ${n} requests`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(t), resolve(e.requests.slice())) });
      });
    },
    reset(): void {
      e.requests.length = 0;
      e.failNext = 0;
      e.delayMs = 0;
    },
    async handle(raw: string, res: ServerResponse): Promise<void> {
      let body: { model?: unknown; input?: unknown; encoding_format?: unknown; dimensions?: unknown } = {};
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        // recorded with no input
      }
      const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : [];
      const format = typeof body.encoding_format === 'string' ? body.encoding_format : undefined;
      e.requests.push({
        model: String(body.model),
        input,
        encodingFormat: format,
        ...(body.dimensions !== undefined && { dimensions: body.dimensions }),
        receivedAt: Date.now(),
      });
      for (const w of [...waiters]) {
        if (e.requests.length < w.n) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (e.delayMs > 0) await new Promise((r) => setTimeout(r, e.delayMs));
      if (res.destroyed) return;
      if (e.failNext > 0) {
        e.failNext--;
        res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        res.end(JSON.stringify({ error: { message: 'embedding failed', type: 'server_error', code: null } }));
        return;
      }
      const data = input.map((text, index) => {
        const v = e.vector(text);
        const embedding = format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
        return { object: 'embedding', index, embedding };
      });
      const tokens = input.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
    },
  };
  return e;
}
