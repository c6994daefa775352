/** One model preset of `models` in the config, checked key by key. */
import { ConfigError } from '../util/errors';
import { Checker, NAME_RE } from './checker';
import type { ModelPreset } from './types';

const PRESET_KEYS = [
  'model',
  'baseURL',
  'apiKeyEnv',
  'apiKey',
  'maxTokens',
  'maxTokensParam',
  'temperature',
  'topP',
  'extraBody',
  'timeoutMs',
  'price',
] as const;
/** Request fields aish sets itself: extraBody may not replace them. */
const OWN_BODY_KEYS = ['model', 'messages', 'stream', 'tools'] as const;

export function validatePreset(c: Checker, key: string, raw: unknown): ModelPreset {
  if (!NAME_RE.test(key.slice('models.'.length))) c.fail(key, 'named with letters, digits, _ or - only', key.slice(7));
  const p = c.object(key, raw, PRESET_KEYS);
  const out: ModelPreset = { model: c.str(`${key}.model`, p.model, { nonEmpty: true }) };
  if (p.baseURL !== undefined) {
    const url = c.str(`${key}.baseURL`, p.baseURL, { nonEmpty: true });
    if (!/^https?:\/\/[^\s]+$/.test(url)) c.fail(`${key}.baseURL`, 'an http:// or https:// URL', url);
    // fetch refuses a URL with `user:password@`, and the password would be shown in every error line.
    if (/^https?:\/\/[^/?#]*@/.test(url))
      c.fail(
        `${key}.baseURL`,
        `a URL without user:password@ (set ${key}.apiKey or apiKeyEnv for the key)`,
        url.replace(/\/\/[^/?#]*@/, '//…@'),
      );
    out.baseURL = url;
  }
  if (p.apiKeyEnv !== undefined) {
    const env = c.str(`${key}.apiKeyEnv`, p.apiKeyEnv, { nonEmpty: true });
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env)) c.fail(`${key}.apiKeyEnv`, 'an environment variable name', env);
    out.apiKeyEnv = env;
  }
  // Never echo a key back: describe() would print it.
  if (p.apiKey !== undefined) {
    if (typeof p.apiKey !== 'string' || p.apiKey === '')
      c.fail(`${key}.apiKey`, 'a non-empty string', typeof p.apiKey === 'string' ? '' : p.apiKey);
    out.apiKey = p.apiKey;
  }
  if (p.maxTokens !== undefined) out.maxTokens = c.int(`${key}.maxTokens`, p.maxTokens, 1);
  if (p.maxTokensParam !== undefined)
    out.maxTokensParam = c.oneOf(`${key}.maxTokensParam`, p.maxTokensParam, ['max_tokens', 'max_completion_tokens']);
  if (p.temperature !== undefined) out.temperature = c.num(`${key}.temperature`, p.temperature, 0, 2);
  if (p.topP !== undefined) out.topP = c.num(`${key}.topP`, p.topP, 0, 1);
  if (p.extraBody !== undefined) {
    const body = c.object(`${key}.extraBody`, p.extraBody, null);
    const own = OWN_BODY_KEYS.find((k) => k in body);
    if (own)
      throw new ConfigError(`config ${c.file}: ${key}.extraBody.${own} cannot be set — aish sends ${OWN_BODY_KEYS.join(', ')} itself`);
    out.extraBody = body;
  }
  if (p.timeoutMs !== undefined) out.timeoutMs = c.int(`${key}.timeoutMs`, p.timeoutMs, 100);
  if (p.price !== undefined) out.price = validatePrice(c, `${key}.price`, p.price);
  return out;
}

/** `{input, output}` in USD per million tokens; both needed, or a cost would be silently half. */
function validatePrice(c: Checker, key: string, raw: unknown): { input: number; output: number } {
  const p = c.object(key, raw, ['input', 'output']);
  return { input: c.num(`${key}.input`, p.input, 0, 10_000), output: c.num(`${key}.output`, p.output, 0, 10_000) };
}
