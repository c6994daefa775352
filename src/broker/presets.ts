/** From a config preset to everything needed to call it: model, URL, key (and where it came from), limits. */
import type { AishConfig, MaxTokensParam, ModelPreset } from '../config/types';
import { UsageError } from '../util/errors';
import { closest } from '../util/suggest';

const OPENAI_URL = 'https://api.openai.com/v1';
const DEFAULT_TIMEOUT_MS = 60_000;
/** The SDK refuses to start without a key; servers that need none (Ollama, LM Studio…) get this. */
const PLACEHOLDER_KEY = 'sk-no-key-required';

/** What is sent as it was configured: the model, the token limit, sampling, extra body fields. */
type Sent = Pick<ModelPreset, 'model' | 'maxTokens' | 'maxTokensParam' | 'temperature' | 'topP' | 'extraBody'>;

export interface ResolvedPreset extends Sent {
  name: string;
  baseURL: string;
  /** Set when the URL came from the environment (`OPENAI_BASE_URL`), for error messages; else it is models.NAME.baseURL's. */
  urlSource?: string;
  /** Undefined when no key was found and the server is OpenAI's own. */
  apiKey: string | undefined;
  /** Where the key came from, for error messages: never the key itself. */
  keySource: string;
  /** Set when no key was found and a placeholder is sent (local servers): the variable that would hold one. */
  missingKeyEnv?: string;
  timeoutMs: number;
}

/** OpenAI's reasoning models (o1, o3-mini, o4-mini, gpt-5…) refuse `max_tokens`; everything else knows it. */
export function maxTokensField(p: Pick<ResolvedPreset, 'model' | 'maxTokensParam'>): MaxTokensParam {
  if (p.maxTokensParam) return p.maxTokensParam;
  return /^(openai\/)?(o\d|gpt-5)/i.test(p.model) ? 'max_completion_tokens' : 'max_tokens';
}

export function presetNames(config: AishConfig): string[] {
  return Object.keys(config.models);
}

export function resolvePreset(config: AishConfig, name: string, env: NodeJS.ProcessEnv = process.env): ResolvedPreset {
  const p = config.models[name];
  if (!p) {
    const hint = closest(name, presetNames(config));
    throw new UsageError(`no model preset "${name}"${hint ? ` (did you mean ${hint}?)` : ''} — presets: ${presetNames(config).join(', ')}`);
  }
  // The variable is checked as the config's baseURL is: a slip here must not read as a network error.
  const fromEnv = p.baseURL === undefined && env.OPENAI_BASE_URL ? env.OPENAI_BASE_URL : undefined;
  if (fromEnv !== undefined && !/^https?:\/\/[^\s]+$/.test(fromEnv))
    throw new UsageError(
      `OPENAI_BASE_URL must be an http:// or https:// URL (got ${JSON.stringify(fromEnv)}), e.g. http://127.0.0.1:11434/v1`,
    );
  const { baseURL: _url, apiKeyEnv: _keyEnv, apiKey: _key, price: _price, timeoutMs = DEFAULT_TIMEOUT_MS, ...sent } = p;
  const baseURL = (p.baseURL ?? fromEnv ?? OPENAI_URL).replace(/\/+$/, '');
  const keyEnv = p.apiKeyEnv ?? 'OPENAI_API_KEY';
  let apiKey = p.apiKey ?? env[keyEnv];
  let keySource = p.apiKey ? `models.${name}.apiKey` : `$${keyEnv}`;
  let missingKeyEnv: string | undefined;
  if (!apiKey && baseURL !== OPENAI_URL) {
    apiKey = PLACEHOLDER_KEY;
    keySource = `no key (preset "${name}" sends a placeholder)`;
    missingKeyEnv = keyEnv;
  }
  return {
    name,
    ...sent,
    baseURL,
    ...(fromEnv !== undefined && { urlSource: 'OPENAI_BASE_URL' }),
    apiKey: apiKey || undefined,
    keySource,
    ...(missingKeyEnv !== undefined && { missingKeyEnv }),
    timeoutMs,
  };
}
