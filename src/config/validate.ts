/**
 * Turns whatever a config file exported into a complete AishConfig, or throws a ConfigError that
 * names the file, the key and what was expected. Hand-written: a schema library would cost start-up
 * time (zod ~176 ms to import) for a dozen keys.
 */
import { exampleConfigHint } from './example';
import { ConfigError } from '../util/errors';
import { closest } from '../util/suggest';
import {
  DEFAULT_CONFIG,
  type AishConfig,
  type McpServerConfig,
  type ModelPreset,
  type SandboxMode,
  type CaptureMode,
  CAPTURE_MODES,
} from './types';

type Obj = Record<string, unknown>;

class Checker {
  constructor(readonly file: string) {}

  fail(key: string, expected: string, got: unknown): never {
    throw new ConfigError(`config ${this.file}: ${key || 'the default export'} must be ${expected} (got ${describe(got)})`);
  }

  object(key: string, v: unknown, allowed: readonly string[] | null): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof RegExp) {
      this.fail(key, 'an object', v);
    }
    if (allowed) {
      for (const k of Object.keys(v)) {
        if (!allowed.includes(k)) {
          const hint = closest(k, allowed);
          const where = key ? `${key}.${k}` : k;
          throw new ConfigError(
            `config ${this.file}: unknown key ${where}${hint ? ` (did you mean ${key ? `${key}.` : ''}${hint}?)` : ''}; ${exampleConfigHint()}`,
          );
        }
      }
    }
    return v as Obj;
  }

  str(key: string, v: unknown, opts: { nonEmpty?: boolean } = {}): string {
    if (typeof v !== 'string' || (opts.nonEmpty && v.trim() === '')) {
      this.fail(key, opts.nonEmpty ? 'a non-empty string' : 'a string', v);
    }
    return v;
  }

  optStr(key: string, v: unknown): string | undefined {
    return v === undefined ? undefined : this.str(key, v, { nonEmpty: true });
  }

  int(key: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.fail(key, `a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`, v);
    }
    return v;
  }

  num(key: string, v: unknown, min: number, max: number): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.fail(key, `a number from ${min} to ${max}`, v);
    }
    return v;
  }

  bool(key: string, v: unknown): boolean {
    if (typeof v !== 'boolean') this.fail(key, 'true or false', v);
    return v;
  }

  strList(key: string, v: unknown): string[] {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) this.fail(key, 'a list of strings', v);
    return v as string[];
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof RegExp) return String(v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return `${typeof v} ${String(v)}`;
}

const TOP_KEYS = ['defaultModel', 'models', 'history', 'context', 'memory', 'mcp', 'safety', 'norris'] as const;
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
const SERVER_KEYS = ['command', 'args', 'env', 'cwd', 'disabled'] as const;
const NAME_RE = /^[A-Za-z0-9_-]+$/;

export function validateConfig(raw: unknown, file: string): AishConfig {
  const c: Checker = new Checker(file);
  const top = raw === undefined ? {} : c.object('', raw, TOP_KEYS);
  const d = DEFAULT_CONFIG;

  let models: Record<string, ModelPreset> = d.models;
  if (top.models !== undefined) {
    const m = c.object('models', top.models, null);
    if (Object.keys(m).length === 0) c.fail('models', 'at least one preset', m);
    models = {};
    for (const [name, p] of Object.entries(m)) models[name] = validatePreset(c, `models.${name}`, p);
  }

  // A user who defines their own presets without naming a default gets their first one.
  const defaultModel =
    top.defaultModel !== undefined
      ? c.str('defaultModel', top.defaultModel, { nonEmpty: true })
      : top.models !== undefined
        ? Object.keys(models)[0]!
        : d.defaultModel;
  if (!(defaultModel in models)) {
    c.fail('defaultModel', `one of the presets in models (${Object.keys(models).join(', ')})`, defaultModel);
  }

  const history = top.history === undefined ? {} : c.object('history', top.history, ['dir']);
  const context = top.context === undefined ? {} : c.object('context', top.context, ['maxTokens', 'maxFileBytes']);

  let memory: AishConfig['memory'];
  if (top.memory === false) memory = false;
  else {
    const m =
      top.memory === undefined
        ? {}
        : c.object('memory', top.memory, [
            'path',
            'injectMaxChars',
            'summarizerModel',
            'pruneOlderThanDays',
            'recall',
            'capture',
            'captureMinTurns',
          ]);
    const r = m.recall === undefined ? {} : c.object('memory.recall', m.recall, ['enabled', 'maxChars', 'minScore']);
    const summarizerModel = c.optStr('memory.summarizerModel', m.summarizerModel);
    if (summarizerModel !== undefined && !(summarizerModel in models)) {
      c.fail('memory.summarizerModel', `one of the presets in models (${Object.keys(models).join(', ')})`, summarizerModel);
    }
    memory = {
      injectMaxChars: m.injectMaxChars === undefined ? 2000 : c.int('memory.injectMaxChars', m.injectMaxChars, 0, 1_000_000),
      recall: {
        enabled: r.enabled === undefined ? true : c.bool('memory.recall.enabled', r.enabled),
        maxChars: r.maxChars === undefined ? 1200 : c.int('memory.recall.maxChars', r.maxChars, 0, 1_000_000),
        minScore: r.minScore === undefined ? 2 : c.num('memory.recall.minScore', r.minScore, 0, 1000),
      },
      capture: m.capture === undefined ? 'ask' : captureMode(c, m.capture),
      captureMinTurns: m.captureMinTurns === undefined ? 4 : c.int('memory.captureMinTurns', m.captureMinTurns, 1, 100_000),
      ...(m.path !== undefined && { path: c.str('memory.path', m.path, { nonEmpty: true }) }),
      ...(summarizerModel !== undefined && { summarizerModel }),
      ...(m.pruneOlderThanDays !== undefined && {
        pruneOlderThanDays: c.num('memory.pruneOlderThanDays', m.pruneOlderThanDays, 0.000001, 1_000_000),
      }),
    };
  }

  const servers: Record<string, McpServerConfig> = {};
  if (top.mcp !== undefined) {
    const mcp = c.object('mcp', top.mcp, ['servers']);
    if (mcp.servers !== undefined) {
      for (const [name, s] of Object.entries(c.object('mcp.servers', mcp.servers, null))) {
        const key = `mcp.servers.${name}`;
        if (!NAME_RE.test(name)) c.fail(key, 'named with letters, digits, _ or - only', name);
        servers[name] = validateServer(c, key, s);
      }
    }
  }

  const safety =
    top.safety === undefined
      ? {}
      : c.object('safety', top.safety, ['confirmCommands', 'extraDestructivePatterns', 'sandbox', 'sandboxNetwork', 'checkpoints']);
  const patterns: Array<string | RegExp> = [];
  if (safety.extraDestructivePatterns !== undefined) {
    const list: unknown = safety.extraDestructivePatterns;
    if (!Array.isArray(list)) c.fail('safety.extraDestructivePatterns', 'a list of regular expressions or strings', list);
    list.forEach((p: unknown, i: number) => {
      const key = `safety.extraDestructivePatterns[${i}]`;
      if (p instanceof RegExp) patterns.push(p);
      else if (typeof p === 'string') {
        try {
          new RegExp(p);
        } catch {
          c.fail(key, 'a valid regular expression', p);
        }
        patterns.push(p);
      } else c.fail(key, 'a regular expression or a string', p);
    });
  }

  const norris = top.norris === undefined ? {} : c.object('norris', top.norris, ['maxSteps']);

  return {
    defaultModel,
    models,
    history: history.dir === undefined ? {} : { dir: c.str('history.dir', history.dir, { nonEmpty: true }) },
    context: {
      maxTokens: context.maxTokens === undefined ? d.context.maxTokens : c.int('context.maxTokens', context.maxTokens, 256),
      maxFileBytes:
        context.maxFileBytes === undefined
          ? d.context.maxFileBytes
          : c.int('context.maxFileBytes', context.maxFileBytes, 1, 64 * 1024 * 1024),
    },
    memory,
    mcp: { servers },
    safety: {
      confirmCommands: safety.confirmCommands === undefined ? true : c.bool('safety.confirmCommands', safety.confirmCommands),
      extraDestructivePatterns: patterns,
      sandbox: safety.sandbox === undefined ? d.safety.sandbox : sandboxMode(c, safety.sandbox),
      sandboxNetwork:
        safety.sandboxNetwork === undefined ? d.safety.sandboxNetwork : c.bool('safety.sandboxNetwork', safety.sandboxNetwork),
      checkpoints: safety.checkpoints === undefined ? d.safety.checkpoints : c.bool('safety.checkpoints', safety.checkpoints),
    },
    norris: { maxSteps: norris.maxSteps === undefined ? d.norris.maxSteps : c.int('norris.maxSteps', norris.maxSteps, 1, 1000) },
  };
}

function captureMode(c: Checker, v: unknown): CaptureMode {
  if (typeof v !== 'string' || !(CAPTURE_MODES as readonly string[]).includes(v))
    c.fail('memory.capture', `one of ${CAPTURE_MODES.map((m) => `"${m}"`).join(', ')}`, v);
  return v as CaptureMode;
}

function sandboxMode(c: Checker, v: unknown): SandboxMode {
  if (v === 'auto' || v === 'required' || v === 'off') return v;
  return c.fail('safety.sandbox', '"auto", "required" or "off"', v);
}

function validatePreset(c: Checker, key: string, raw: unknown): ModelPreset {
  if (!NAME_RE.test(key.slice('models.'.length))) c.fail(key, 'named with letters, digits, _ or - only', key.slice(7));
  const p = c.object(key, raw, PRESET_KEYS);
  const out: ModelPreset = { model: c.str(`${key}.model`, p.model, { nonEmpty: true }) };
  if (p.baseURL !== undefined) {
    const url = c.str(`${key}.baseURL`, p.baseURL, { nonEmpty: true });
    if (!/^https?:\/\/[^\s]+$/.test(url)) c.fail(`${key}.baseURL`, 'an http:// or https:// URL', url);
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
  if (p.maxTokensParam !== undefined) {
    if (p.maxTokensParam !== 'max_tokens' && p.maxTokensParam !== 'max_completion_tokens')
      c.fail(`${key}.maxTokensParam`, '"max_tokens" or "max_completion_tokens"', p.maxTokensParam);
    out.maxTokensParam = p.maxTokensParam;
  }
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

function validateServer(c: Checker, key: string, raw: unknown): McpServerConfig {
  const s = c.object(key, raw, SERVER_KEYS);
  const out: McpServerConfig = { command: c.str(`${key}.command`, s.command, { nonEmpty: true }) };
  if (s.args !== undefined) out.args = c.strList(`${key}.args`, s.args);
  if (s.env !== undefined) {
    const env = c.object(`${key}.env`, s.env, null);
    for (const [k, v] of Object.entries(env)) c.str(`${key}.env.${k}`, v);
    out.env = env as Record<string, string>;
  }
  if (s.cwd !== undefined) out.cwd = c.str(`${key}.cwd`, s.cwd, { nonEmpty: true });
  if (s.disabled !== undefined) out.disabled = c.bool(`${key}.disabled`, s.disabled);
  return out;
}
