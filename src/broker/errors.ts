/**
 * Every failure of a model call becomes one line that says what happened and what to do:
 * authentication, unreachable server (with its URL), rate limit, timeout, unknown model, cut stream.
 */
import { AishError } from '../util/errors';
import { noRouteOf } from './no-route';
import type { ResolvedPreset } from './presets';

export type BrokerErrorKind =
  | 'auth'
  | 'permission'
  | 'unreachable'
  | 'rate-limit'
  | 'timeout'
  | 'stalled'
  | 'unknown-model'
  | 'no-route'
  | 'no-key'
  | 'cut'
  | 'server'
  | 'rejected'
  | 'protocol';

export class BrokerError extends AishError {
  constructor(
    readonly kind: BrokerErrorKind,
    message: string,
    /** Answer text that arrived before the failure; kept and shown. */
    readonly partial = '',
    /** The server's retry-after, in ms, when it sent one. */
    readonly retryAfterMs?: number,
    /** What happened, without what was done about it ("rate limited by URL (429): …"), for tooLongToWait. */
    readonly head?: string,
  ) {
    // No key at all is the configuration's fault, not the call's: exit 2 like every config error.
    super(message, kind === 'no-key' ? 2 : 1);
    this.name = 'BrokerError';
  }
}

/** The preset has no key and its server is OpenAI's own: nothing is sent. */
export function noKeyError(p: Pick<ResolvedPreset, 'baseURL' | 'name'>): BrokerError {
  return new BrokerError('no-key', `no API key for ${p.baseURL} — set OPENAI_API_KEY, or apiKeyEnv in models.${p.name}`);
}

/** retry-after-ms / retry-after (seconds or an HTTP date) from an SDK error's headers. */
function retryAfter(err: unknown): number | undefined {
  const h = (err as { headers?: { get?: (k: string) => string | null } }).headers;
  if (!h || typeof h.get !== 'function') return undefined;
  const ms = Number(h.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && h.get('retry-after-ms') !== null) return ms;
  const raw = h.get('retry-after');
  if (raw === null || raw === undefined) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** "400 ms", "60 s", "2 min". */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/**
 * The server asked to wait longer than aish waits: say that, not "after retries" (none was made,
 * or none more will be).
 */
export function tooLongToWait(err: BrokerError, capMs: number, retriesMade: number): BrokerError {
  if (err.retryAfterMs === undefined || err.head === undefined) return err;
  const done = retriesMade === 0 ? 'not retried' : `not retried again (after ${retriesMade} ${retriesMade === 1 ? 'retry' : 'retries'})`;
  const text = `${err.head}; it asks to wait ${duration(err.retryAfterMs)}, longer than aish waits (${duration(capMs)}) — ${done}`;
  return new BrokerError(err.kind, text, err.partial, err.retryAfterMs, err.head);
}

const KEYISH = /\b(sk-[A-Za-z0-9_*-]{6,}|[A-Za-z0-9_-]{32,})\b/g;

/** Servers sometimes echo (part of) the key in messages; never print it. */
/** A preset that sent no real key (a local server's placeholder): which one, and how to give it a key. */
function noKeyFix(preset: ResolvedPreset): string {
  return `preset "${preset.name}" has no API key: export ${preset.missingKeyEnv}=…, or set models.${preset.name}.apiKey or .apiKeyEnv in the config`;
}

function hideApiKeys(text: string, preset: ResolvedPreset): string {
  let out = text;
  if (preset.apiKey && preset.apiKey.length >= 6) out = out.split(preset.apiKey).join('[key]');
  return out.replace(KEYISH, '[redacted]');
}

function serverMessage(err: unknown): string {
  const e = err as { error?: { message?: unknown }; message?: unknown };
  const m = typeof e.error?.message === 'string' ? e.error.message : typeof e.message === 'string' ? e.message : '';
  // The SDK prefixes "401 " etc.; keep the server's own words, one line.
  return m
    .replace(/^\d{3}\s+/, '')
    .split('\n')[0]!
    .trim();
}

/** The innermost cause's message ("bad port", "getaddrinfo ENOTFOUND x"…). */
function rootCauseMessage(err: unknown): string | undefined {
  let c: unknown = (err as { cause?: unknown }).cause;
  let msg: string | undefined;
  for (let i = 0; i < 6 && c; i++) {
    const m = (c as { message?: unknown }).message;
    if (typeof m === 'string' && m) msg = m;
    c = (c as { cause?: unknown }).cause;
  }
  return msg;
}

function causeCode(err: unknown): string | undefined {
  let c: unknown = (err as { cause?: unknown }).cause;
  for (let i = 0; i < 4 && c; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The `error` object of an SDK APIError raised by an error event in the stream. */
function streamErrorBody(err: unknown): { code?: unknown; type?: unknown; status?: unknown } | undefined {
  const e = (err as { error?: unknown }).error;
  return typeof e === 'object' && e !== null ? e : undefined;
}

/** A code or type field as text; anything but a string or number says nothing. */
const word = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** 401, 403, 404 or 429 when the body's code or type says so (OpenAI, Anthropic-style and vLLM shapes). */
function impliedStatus(e: { code?: unknown; type?: unknown; status?: unknown }): number | undefined {
  const n = Number(e.status ?? e.code);
  if ([401, 403, 404, 429].includes(n) || n >= 500) return n;
  const words = `${word(e.code)} ${word(e.type)}`.toLowerCase();
  if (/invalid_api_key|authentication|unauthori[sz]ed/.test(words)) return 401;
  if (/permission|forbidden/.test(words)) return 403;
  if (/model_not_found|not_found/.test(words)) return 404;
  if (/rate_limit|overloaded|too_many/.test(words)) return 429;
  return undefined;
}

/** Map anything the SDK (or the network) threw to a BrokerError. */
export function toBrokerError(err: unknown, preset: ResolvedPreset, partial = ''): BrokerError {
  if (err instanceof BrokerError) return err;
  const url = preset.baseURL;
  // Where the URL was set, so the fix names what the user wrote: OPENAI_BASE_URL or the preset's key.
  const urlKey = preset.urlSource ?? `models.${preset.name}.baseURL`;
  const name = (err as { constructor?: { name?: string } }).constructor?.name ?? '';
  const given = (err as { status?: unknown }).status;
  const sseError = given === undefined ? streamErrorBody(err) : undefined;
  // An error event inside the stream carries no HTTP status: read one from its body, so a bad key
  // sent that way fails at once like a 401 instead of being retried as a server fault.
  const status = typeof given === 'number' ? given : sseError && impliedStatus(sseError);
  const msg = hideApiKeys(serverMessage(err), preset);
  const said = msg ? `: ${msg}` : '';
  const make = (kind: BrokerErrorKind, text: string, head?: string) => new BrokerError(kind, text, partial, retryAfter(err), head);
  const saidBare = said.replace(/\.$/, '');

  if (name === 'APIConnectionTimeoutError') {
    return make(
      'timeout',
      `no answer from ${url} within ${duration(preset.timeoutMs)} — check the server, or raise models.${preset.name}.timeoutMs`,
    );
  }
  // undici reports a connection closed mid-body as TypeError('terminated'), cause UND_ERR_SOCKET.
  if (causeCode(err) === 'UND_ERR_SOCKET' || (err instanceof TypeError && /terminated/i.test(err.message))) {
    return make('cut', `the connection to ${url} dropped mid-answer${partial ? '; partial answer kept' : ''} — try again`);
  }
  if (name === 'APIConnectionError' || (status === undefined && causeCode(err))) {
    const code = causeCode(err);
    const why =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'host not found'
          : (code ?? rootCauseMessage(err) ?? 'connection failed');
    if (partial) return make('cut', `the connection to ${url} dropped mid-answer (${why}); partial answer kept`);
    // https:// to a server that speaks plain HTTP (a local server, nearly always): say which to use.
    if (/^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST)$/.test(code ?? '') && url.startsWith('https://')) {
      const plain = `http://${url.slice('https://'.length)}`;
      return make('unreachable', `${url} does not speak HTTPS (${code}) — set ${urlKey} to '${plain}'`);
    }
    return make('unreachable', `cannot reach ${url} (${why}) — is the server running, and is the base URL right?`);
  }
  switch (status) {
    case 401:
      return make(
        'auth',
        `${url} refused the API key (401)${said} — ${preset.missingKeyEnv ? noKeyFix(preset) : `check ${preset.keySource}`}`,
      );
    case 403:
      return make(
        'permission',
        `${url} denied access (403)${said} — ${preset.missingKeyEnv ? noKeyFix(preset) : `check that ${preset.keySource} may use model "${preset.model}"`}`,
      );
    case 405:
    case 404: {
      const route = noRouteOf(err);
      if (route) {
        const fix = route.aish_try
          ? `it answers at ${route.aish_try}: set ${urlKey} to '${route.aish_try}'`
          : `check ${urlKey} (OpenAI-compatible servers serve it under …/v1, e.g. http://127.0.0.1:11434/v1 for Ollama)`;
        if (route.aish_page) return make('no-route', `${url} answers /chat/completions with a web page, not the API — ${fix}`);
        return make('no-route', `${url} has no /chat/completions (${status})${said} — ${fix}`);
      }
      if (status === 405) break;
      return make(
        'unknown-model',
        `model "${preset.model}" not found at ${url} (404)${said} — check models.${preset.name}.model, or pick another with :model`,
      );
    }
    case 429:
      return make(
        'rate-limit',
        `rate limited by ${url} (429) after retries${said} — wait a moment and try again`,
        `rate limited by ${url} (429)${saidBare}`,
      );
    case 413:
      return make('rejected', `${url} refused the request as too large (413)${said} — send less: a smaller file or input, or :clear`);
    case 400:
    case 422:
      return make('rejected', `${url} rejected the request (${status})${said}`);
  }
  if (sseError && status === undefined) {
    if (partial) return make('cut', `the answer from ${url} broke off with an error${said}; partial answer kept`);
    return make('rejected', `${url} reported an error during the answer${said}`);
  }
  if (typeof status === 'number' && status >= 500)
    return make('server', `server error ${status} from ${url}${said} — try again`, `server error ${status} from ${url}${saidBare}`);
  if (typeof status === 'number') return make('server', `unexpected ${status} from ${url}${said}`);
  if (err instanceof SyntaxError || /JSON/i.test(msg))
    return make('protocol', `unreadable data from ${url} (${msg || 'bad JSON'})${partial ? '; partial answer kept' : ''}`);
  if (partial) return make('cut', `the answer from ${url} broke off (${msg || name || 'stream error'}); partial answer kept`);
  return make('server', `model call to ${url} failed: ${msg || name || String(err)}`);
}
