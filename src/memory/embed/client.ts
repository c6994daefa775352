/**
 * Calls an OpenAI-compatible `/v1/embeddings` (OpenAI, Ollama, llama.cpp, vLLM) through the
 * `openai` SDK, imported on first use so a session without embeddings never loads it. Every call
 * has its own time limit and no SDK retries: a slow or failing server only costs hybrid recall, so
 * the caller decides when to try again.
 */
import type OpenAI from 'openai';
import { fetchReadableErrors } from '../../broker/error-body';
import { toBrokerError } from '../../broker/errors';
import type { ResolvedPreset } from '../../broker/presets';

class EmbedError extends Error {}

export class EmbedClient {
  private client: Promise<OpenAI> | null = null;

  constructor(
    /** The preset whose baseURL and key are used. */
    private readonly preset: ResolvedPreset,
    readonly model: string,
    /** Sent as `dimensions` when set. */
    private readonly dimensions?: number,
  ) {}

  /** Import the SDK and make the client now (after start-up), so the first turn's limit is not spent on it. */
  prepare(): void {
    this.sdk().catch(() => undefined);
  }

  private sdk(): Promise<OpenAI> {
    this.client ??= (async () => {
      const p = this.preset;
      if (!p.apiKey) throw new EmbedError(`no API key for ${p.baseURL} — set OPENAI_API_KEY, or apiKeyEnv in models.${p.name}`);
      const { default: OpenAIClass } = await import('openai');
      return new OpenAIClass({ apiKey: p.apiKey, baseURL: p.baseURL, maxRetries: 0, logLevel: 'off', fetch: fetchReadableErrors });
    })();
    this.client.catch(() => (this.client = null));
    return this.client;
  }

  /** One vector per text, in order; an EmbedError with one line to show when the server fails or is slower than `timeoutMs`. */
  async embed(texts: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<Float32Array[]> {
    const client = await this.sdk();
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    const onAbort = () => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // 'float': not every server speaks the SDK's default (base64).
      const r = await client.embeddings.create(
        {
          model: this.model,
          input: [...texts],
          encoding_format: 'float',
          ...(this.dimensions !== undefined && { dimensions: this.dimensions }),
        },
        { signal: ac.signal, timeout: timeoutMs },
      );
      const out = new Array<Float32Array>(texts.length);
      for (const d of r.data) if (d.index >= 0 && d.index < texts.length) out[d.index] = Float32Array.from(d.embedding);
      const dim = out[0]?.length ?? 0;
      for (let i = 0; i < texts.length; i++)
        if (!out[i] || out[i]!.length !== dim || dim === 0)
          throw new EmbedError(`${this.where()} answered without a vector for every text`);
      return out;
    } catch (err) {
      if (err instanceof EmbedError) throw err;
      if (ac.signal.aborted && !signal?.aborted) throw new EmbedError(`${this.where()} did not answer within ${timeoutMs} ms`);
      throw new EmbedError(toBrokerError(err, { ...this.preset, model: this.model, timeoutMs }).message);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  where(): string {
    return `embeddings "${this.model}" at ${this.preset.baseURL}`;
  }
}
