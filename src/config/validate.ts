/**
 * Turns whatever a config file exported into a complete AishConfig, or throws a ConfigError that
 * names the file, the key and what was expected. Hand-written: a schema library would cost start-up
 * time (zod ~176 ms to import) for a dozen keys.
 */
import { validateSynonyms } from './validate-synonyms';
import { validateEmbeddings } from './validate-embeddings';
import { validateSync } from './validate-sync';
import { Checker, NAME_RE } from './checker';
import { validatePreset } from './validate-preset';
import { validateRules } from './validate-rules';
import {
  DEFAULT_CONFIG,
  type AishConfig,
  type McpServerConfig,
  type ModelPreset,
  CAPTURE_MODES,
  EDITOR_KEYS,
  SANDBOX_MODES,
  TEAM_MODES,
} from './types';

const TOP_KEYS = ['defaultModel', 'models', 'history', 'context', 'memory', 'mcp', 'safety', 'norris', 'editor'] as const;
const SERVER_KEYS = ['command', 'args', 'env', 'cwd', 'disabled'] as const;

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
            'sync',
            'team',
            'agents',
          ]);
    const r =
      m.recall === undefined
        ? {}
        : c.object('memory.recall', m.recall, ['enabled', 'maxChars', 'minScore', 'maxItems', 'synonyms', 'embeddings']);
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
        ...(r.maxItems !== undefined && { maxItems: c.int('memory.recall.maxItems', r.maxItems, 1, 1000) }),
        ...(r.synonyms !== undefined && { synonyms: validateSynonyms(c, r.synonyms) }),
        ...(r.embeddings !== undefined && { embeddings: validateEmbeddings(c, r.embeddings, models) }),
      },
      capture: m.capture === undefined ? 'ask' : c.oneOf('memory.capture', m.capture, CAPTURE_MODES),
      captureMinTurns: m.captureMinTurns === undefined ? 4 : c.int('memory.captureMinTurns', m.captureMinTurns, 1, 100_000),
      team: m.team === undefined ? 'review' : c.oneOf('memory.team', m.team, TEAM_MODES),
      agents: m.agents === undefined ? 'review' : c.oneOf('memory.agents', m.agents, TEAM_MODES),
      ...(m.path !== undefined && { path: c.str('memory.path', m.path, { nonEmpty: true }) }),
      ...(m.sync !== undefined && { sync: validateSync(c, m.sync) }),
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
      : c.object('safety', top.safety, [
          'confirmCommands',
          'extraDestructivePatterns',
          'sandbox',
          'sandboxNetwork',
          'passEnv',
          'checkpoints',
          'rules',
        ]);
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
  const editor = top.editor === undefined ? {} : c.object('editor', top.editor, ['keys']);

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
      sandbox: safety.sandbox === undefined ? d.safety.sandbox : c.oneOf('safety.sandbox', safety.sandbox, SANDBOX_MODES),
      sandboxNetwork:
        safety.sandboxNetwork === undefined ? d.safety.sandboxNetwork : c.bool('safety.sandboxNetwork', safety.sandboxNetwork),
      passEnv: safety.passEnv === undefined ? [] : c.strList('safety.passEnv', safety.passEnv),
      checkpoints: safety.checkpoints === undefined ? d.safety.checkpoints : c.bool('safety.checkpoints', safety.checkpoints),
      rules: safety.rules === undefined ? [] : validateRules(c, safety.rules),
    },
    norris: { maxSteps: norris.maxSteps === undefined ? d.norris.maxSteps : c.int('norris.maxSteps', norris.maxSteps, 1, 1000) },
    editor: { keys: editor.keys === undefined ? d.editor.keys : c.oneOf('editor.keys', editor.keys, EDITOR_KEYS) },
  };
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
