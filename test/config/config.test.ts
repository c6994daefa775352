import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { defaultConfigPath, resolvePaths } from '../../src/config/paths';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { validateConfig } from '../../src/config/validate';
import { exampleConfigPath } from '../../src/config/example';
import { tildify } from '../../src/util/paths';
import { ConfigError } from '../../src/util/errors';
import { ROOT } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';

function writeConfig(dir: string, body: string, name = 'config.ts'): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

describe('config', () => {
  it('config.example.ts itself loads and validates', async () => {
    const { config, path } = await loadConfig(join(ROOT, 'config.example.ts'), {});
    expect(path).toBe(join(ROOT, 'config.example.ts'));
    expect(config).toEqual({
      ...DEFAULT_CONFIG,
      memory: {
        injectMaxChars: 2000,
        recall: { enabled: true, maxChars: 1200, minScore: 2 },
        capture: 'ask',
        captureMinTurns: 4,
        team: 'review',
        agents: 'review',
      },
    });
  });

  it('no config file means the built-in defaults', async () => {
    const home = tmpDir();
    const { config, path } = await loadConfig(undefined, { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
    expect(path).toBeNull();
    expect(config).toEqual(DEFAULT_CONFIG);
  });

  it('finds the XDG config file, and $AISH_CONFIG before it', async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeConfig(join(home, '.config', 'aish'), 'export default { norris: { maxSteps: 3 } };\n');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    expect((await loadConfig(undefined, env)).config.norris.maxSteps).toBe(3);
    const other = writeConfig(home, 'export default { norris: { maxSteps: 5 } };\n', 'other.ts');
    expect((await loadConfig(undefined, { ...env, AISH_CONFIG: other })).config.norris.maxSteps).toBe(5);
    const third = writeConfig(home, 'export default { norris: { maxSteps: 7 } };\n', 'third.ts');
    expect((await loadConfig(third, { ...env, AISH_CONFIG: other })).config.norris.maxSteps).toBe(7);
  });

  it('a user with their own presets and no defaultModel gets their first preset', () => {
    const c = validateConfig({ models: { local: { model: 'llama3', baseURL: 'http://localhost:11434/v1' } } }, 'c.ts');
    expect(c.defaultModel).toBe('local');
    expect(Object.keys(c.models)).toEqual(['local']);
  });

  it.each([
    [{ context: { maxTokens: 'lots' } }, 'context.maxTokens must be a whole number from 256 up (got "lots")'],
    [{ models: { fast: { model: 'x', temperature: 7 } } }, 'models.fast.temperature must be a number from 0 to 2 (got number 7)'],
    [{ models: { fast: { model: 'x', baseURL: 'localhost:1234' } } }, 'models.fast.baseURL must be an http:// or https:// URL'],
    // The password is not echoed back.
    [
      { models: { fast: { model: 'x', baseURL: 'http://bob:hunter2@localhost:1234/v1' } } },
      'models.fast.baseURL must be a URL without user:password@ (set models.fast.apiKey or apiKeyEnv for the key) (got "http://…@localhost:1234/v1")',
    ],
    [{ defaultModel: 'deep', models: { fast: { model: 'x' } } }, 'defaultModel must be one of the presets in models (fast) (got "deep")'],
    [{ memory: { injectMaxChars: -1 } }, 'memory.injectMaxChars must be a whole number from 0 to 1000000 (got number -1)'],
    [{ memory: { recall: { maxChars: 'lots' } } }, 'memory.recall.maxChars must be a whole number from 0 to 1000000 (got "lots")'],
    [{ memory: { summarizerModel: 'nope' } }, 'memory.summarizerModel must be one of the presets in models (fast, deep) (got "nope")'],
    [{ memroy: {} }, 'unknown key memroy (did you mean memory?)'],
    [{ models: { fast: { modle: 'x' } } }, 'unknown key models.fast.modle (did you mean models.fast.model?)'],
    [{ mcp: { servers: { fs: { args: [] } } } }, 'mcp.servers.fs.command must be a non-empty string (got nothing)'],
    [{ safety: { extraDestructivePatterns: ['('] } }, 'safety.extraDestructivePatterns[0] must be a valid regular expression'],
    [{ models: { fast: { model: 'x', topP: 1.5 } } }, 'models.fast.topP must be a number from 0 to 1 (got number 1.5)'],
    [{ models: { fast: { model: 'x', maxTokens: 0 } } }, 'models.fast.maxTokens must be a whole number from 1 up (got number 0)'],
    [
      { models: { fast: { model: 'x', maxTokensParam: 'max' } } },
      'models.fast.maxTokensParam must be "max_tokens" or "max_completion_tokens" (got "max")',
    ],
    [{ models: { fast: { model: 'x', extraBody: [1] } } }, 'models.fast.extraBody must be an object (got a list)'],
    [
      { models: { fast: { model: 'x', extraBody: { messages: [] } } } },
      'models.fast.extraBody.messages cannot be set — aish sends model, messages, stream, tools itself',
    ],
    [{ models: { fast: { model: 'x', extraBody: { stream: false } } } }, 'models.fast.extraBody.stream cannot be set'],
    [{ norris: { maxSteps: 0 } }, 'norris.maxSteps must be a whole number from 1 to 1000 (got number 0)'],
    // A function is named, not printed: its source would not fit one line.
    [{ defaultModel: () => 'fast' }, 'defaultModel must be a non-empty string (got a function)'],
    [{ history: { dir: Symbol('d') } }, 'history.dir must be a non-empty string (got symbol)'],
    [[], 'the default export must be an object (got a list)'],
  ])('rejects %j naming the key and what is expected', (raw, message) => {
    expect(() => validateConfig(raw, '/x/config.ts')).toThrow(`config /x/config.ts: ${message}`);
  });

  it('an unknown key points at config.example.ts by a path that exists', () => {
    expect(() => validateConfig({ memroy: {} }, '/x/config.ts')).toThrow(
      `; see ${tildify(join(ROOT, 'config.example.ts'))} (every key, with comments)`,
    );
    expect(existsSync(exampleConfigPath()!)).toBe(true);
  });

  it('never echoes an API key in an error', () => {
    expect(() => validateConfig({ models: { fast: { model: 'x', apiKey: 123 } } }, 'c.ts')).toThrow(/apiKey must be a non-empty string/);
    expect(() => validateConfig({ models: { fast: { model: 'x', apiKey: 'sk-secret', temperature: 'hot' } } }, 'c.ts')).not.toThrow(
      /sk-secret/,
    );
  });

  it('accepts memory: false and regular expressions in extraDestructivePatterns', () => {
    const c = validateConfig({ memory: false, safety: { extraDestructivePatterns: [/terraform\s+destroy/, 'kubectl delete'] } }, 'c.ts');
    expect(c.memory).toBe(false);
    expect(c.safety.extraDestructivePatterns).toHaveLength(2);
  });
});

describe('data dir resolution', () => {
  const config = DEFAULT_CONFIG;
  it('a relative XDG_DATA_HOME or XDG_CONFIG_HOME is ignored (the XDG spec): the data dir does not follow the current directory', () => {
    const env = { XDG_DATA_HOME: 'rel/data', XDG_CONFIG_HOME: 'rel/config' };
    expect(resolvePaths({ config, configPath: null, env }).dataDir).toBe(join(homedir(), '.local', 'share', 'aish'));
    expect(defaultConfigPath(env)).toBe(join(homedir(), '.config', 'aish', 'config.ts'));
    expect(resolvePaths({ config, configPath: null, env: { XDG_DATA_HOME: '/abs' } }).dataDir).toBe('/abs/aish');
  });

  it('--data-dir, then $AISH_DATA_DIR, then history.dir, then XDG', () => {
    const env = { HOME: '/h', XDG_DATA_HOME: '/xdg' };
    expect(resolvePaths({ config, configPath: null, env }).dataDir).toBe('/xdg/aish');
    const withHistory = { ...config, history: { dir: 'data' } };
    expect(resolvePaths({ config: withHistory, configPath: '/etc/aish/config.ts', env }).dataDir).toBe('/etc/aish/data');
    expect(resolvePaths({ config: withHistory, configPath: null, env: { ...env, AISH_DATA_DIR: '/env' } }).dataDir).toBe('/env');
    expect(
      resolvePaths({ config: withHistory, configPath: null, env: { ...env, AISH_DATA_DIR: '/env' }, dataDirFlag: '/flag' }).dataDir,
    ).toBe('/flag');
    const p = resolvePaths({ config, configPath: null, env, dataDirFlag: '/flag' });
    expect(p).toEqual({
      dataDir: '/flag',
      memoryPath: '/flag/memory.jsonl',
      sessionsDir: '/flag/sessions',
      inputHistory: '/flag/input-history',
    });
  });

  it('memory.path overrides the memory file location', () => {
    const c = {
      ...config,
      memory: {
        injectMaxChars: 10,
        path: 'mem/m.jsonl',
        recall: { enabled: true, maxChars: 1200, minScore: 2 },
        capture: 'ask' as const,
        captureMinTurns: 4,
        team: 'review' as const,
        agents: 'review' as const,
      },
    };
    expect(resolvePaths({ config: c, configPath: '/cfg/config.ts', env: {}, dataDirFlag: '/d' }).memoryPath).toBe('/cfg/mem/m.jsonl');
  });
});

describe('a config that misbehaves while loading: exit 2, one line naming the file', () => {
  async function loadError(body: string, timeoutMs = 5000): Promise<ConfigError> {
    const p = writeConfig(tmpDir(), body);
    try {
      await loadConfig(p, {}, timeoutMs);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).exitCode).toBe(2);
      expect((err as Error).message.startsWith(`config ${p}: `)).toBe(true);
      expect((err as Error).message).not.toContain('\n');
      return err as ConfigError;
    }
    throw new Error('expected the config to fail');
  }

  it.each([
    ['a default export that never settles', 'export default new Promise(() => {});\n'],
    ['a default function whose promise never settles', 'export default () => new Promise(() => {});\n'],
    ['a module whose top-level await never settles', 'await new Promise(() => {});\nexport default {};\n'],
  ])('%s times out', async (_name, body) => {
    const err = await loadError(body, 50);
    expect(err.message).toMatch(/: not loaded within 0\.05 s — does its default export \(or a promise it returns\) never settle\?$/);
  });

  it('nesting too deep for the transpiler: says so, not "line 0: undefined"', async () => {
    const err = await loadError(`export default { x: ${'['.repeat(3000)}${']'.repeat(3000)} };\n`);
    expect(err.message).toMatch(/: nested too deeply to read \(the transpiler ran out of stack\): flatten the deepest arrays or objects$/);
  });

  it('a throwing getter anywhere in the object', async () => {
    const err = await loadError(
      "export default { memory: { injectMaxChars: 100, get summarizerModel() { throw new Error('boom'); } } };\n",
    );
    expect(err.message).toMatch(/: reading its values failed: boom$/);
  });

  it('a default export that rejects, or a function that throws', async () => {
    expect((await loadError("export default Promise.reject(new Error('no config today'));\n")).message).toMatch(
      /: its default export failed: no config today$/,
    );
    expect((await loadError("export default () => { throw new TypeError('bad'); };\n")).message).toMatch(
      /: its default export failed: bad$/,
    );
  });

  it('a module that throws at import, even something that is not an Error', async () => {
    expect((await loadError("throw new Error('refused');\nexport default {};\n")).message).toMatch(/refused$/);
    expect((await loadError('throw null;\nexport default {};\n')).message).toMatch(/: it threw null$/);
  });
});

describe('AISH_CAPTURE', () => {
  it('overrides memory.capture for one run, and a bad value is a config error', async () => {
    const { setup } = await import('../../src/config/setup');
    const home = tmpDir();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const on = await setup({}, env);
    expect(on.config.memory && on.config.memory.capture).toBe('ask');
    const off = await setup({}, { ...env, AISH_CAPTURE: 'off' });
    expect(off.config.memory && off.config.memory.capture).toBe('off');
    await expect(setup({}, { ...env, AISH_CAPTURE: 'sometimes' })).rejects.toThrow('AISH_CAPTURE must be off, ask, auto (got "sometimes")');
  });
});
