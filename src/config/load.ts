/**
 * Finds and loads the user's config module (--config, $AISH_CONFIG, else the XDG default). jiti is imported only when a file exists,
 * so a user without a config pays nothing for it.
 */
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, errnoCode } from '../util/errors';
import { describeFsError } from '../util/fs-safe';
import { expandHome } from '../util/paths';
import { configCacheDir } from './config-cache';
import { defaultConfigPath } from './paths';
import { DEFAULT_CONFIG, type AishConfig } from './types';
import { validateConfig } from './validate';
import { setSynonyms } from '../util/word-groups';
import * as define from './define';

export interface LoadedConfig {
  config: AishConfig;
  /** The file the config came from; null when defaults are used. */
  path: string | null;
}

function locateConfig(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): { path: string; explicit: boolean } {
  if (flag) return { path: resolve(expandHome(flag)), explicit: true };
  if (env.AISH_CONFIG) return { path: resolve(expandHome(env.AISH_CONFIG)), explicit: true };
  return { path: defaultConfigPath(env), explicit: false };
}

/**
 * How long loading the config may take. A default export that never settles would otherwise leave
 * nothing for Node to wait on, and aish would exit 0 having done nothing.
 */
const CONFIG_LOAD_TIMEOUT_MS = 5000;

export async function loadConfig(
  flag?: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = CONFIG_LOAD_TIMEOUT_MS,
): Promise<LoadedConfig> {
  const { path, explicit } = locateConfig(flag, env);
  if (!existsSync(path) && !circular(path)) {
    if (explicit) throw new ConfigError(`config file not found: ${path} (check --config or $AISH_CONFIG)`);
    return { config: structuredClone(DEFAULT_CONFIG), path: null };
  }
  refuseOddFile(path);
  return { config: await withTimeout(path, loadAndValidate(path), timeoutMs), path };
}

/** A circle of symbolic links (ELOOP): existsSync says nothing is there, but something is. */
function circular(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (err) {
    return errnoCode(err) === 'ELOOP';
  }
}

/**
 * Only a regular file is loaded: the module loader reads it by name, synchronously, so a FIFO would
 * block aish for ever (the load's timeout never gets to run) and a directory reads as a missing module.
 */
function refuseOddFile(path: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    if (errnoCode(err) === 'ELOOP')
      throw new ConfigError(`config ${path}: its symbolic links go in a circle — fix them, or point --config at a file`);
    throw new ConfigError(`cannot read config ${path}: ${describeFsError(err)} — check the file`);
  }
  if (st.isDirectory()) throw new ConfigError(`config ${path} is a directory — point --config (or $AISH_CONFIG) at a file`);
  if (!st.isFile())
    throw new ConfigError(`config ${path} is not a regular file (a FIFO or a device) — point --config (or $AISH_CONFIG) at a file`);
}

async function loadAndValidate(path: string): Promise<AishConfig> {
  const raw = await importConfigModule(path);
  try {
    const config = validateConfig(raw, path);
    // Recall's terms are cut with them from now on, the index's and every query's alike.
    setSynonyms(config.memory ? config.memory.recall.synonyms : undefined);
    return config;
  } catch (err) {
    // Validation reads every property: a getter in the config may throw anything.
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`config ${path}: reading its values failed: ${oneLine(err)}`);
  }
}

function withTimeout<T>(path: string, work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // A timer that holds the process open: it ends either way, with this error rather than silently.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConfigError(
            `config ${path}: not loaded within ${ms / 1000} s — does its default export (or a promise it returns) never settle?`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The first line of whatever was thrown; never throws itself. */
function oneLine(err: unknown): string {
  try {
    const text = err instanceof Error ? err.message : String(err);
    return text.split('\n')[0]!.trim() || (err instanceof Error ? err.name : 'an empty error');
  } catch {
    return 'an error that cannot be shown';
  }
}

/** Errors of a cache that cannot be written (a full disk, a read-only or foreign ~/.cache). */
const CACHE_WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

async function importConfigModule(path: string): Promise<unknown> {
  const { createJiti } = await import('jiti');
  const load = (fsCache: string | false) =>
    createJiti(import.meta.url, {
      fsCache,
      moduleCache: false,
      interopDefault: true,
      // `import { defineConfig } from 'aish'` works without aish in the config's node_modules.
      virtualModules: { aish: define, 'aish/config': define },
    }).import(path);
  let mod: unknown;
  let def: unknown;
  try {
    const cache = configCacheDir();
    try {
      mod = await load(cache);
    } catch (err) {
      // jiti writes its cache unguarded: a cache that cannot be written is no reason to refuse the
      // config. Compiled again without one (a broken config fails the same way again).
      const code = errnoCode(err);
      if (cache === false || code === undefined || !CACHE_WRITE_CODES.has(code)) throw err;
      mod = await load(false);
    }
    def = typeof mod === 'object' && mod !== null && 'default' in mod ? mod.default : undefined;
  } catch (err) {
    let why: string;
    try {
      why = describeLoadError(err, path);
    } catch {
      why = oneLine(err); // whatever was thrown fought back when read
    }
    throw new ConfigError(`config ${path}: ${why}`);
  }
  if (def === undefined) throw new ConfigError(`config ${path}: no default export (write \`export default defineConfig({ … })\`)`);
  try {
    return await (typeof def === 'function' ? (def as () => unknown)() : def);
  } catch (err) {
    throw new ConfigError(`config ${path}: its default export failed: ${oneLine(err)}`);
  }
}

/** "line 3: Unexpected token" from whatever shape the transpiler or runtime threw. */
function describeLoadError(err: unknown, path: string): string {
  if (typeof err !== 'object' || err === null) return `it threw ${oneLine(err)}`;
  const e = err as { message?: unknown; loc?: { line: number; column: number }; stack?: unknown };
  const message = (typeof e.message === 'string' ? e.message : oneLine(err)).split('\n')[0]!.replace(/^\[.*?\]\s*/, '');
  // The transpiler recursed until the stack ran out: its line and prefix (`line 0: undefined:`) say nothing.
  if (/Maximum call stack size exceeded/.test(message))
    return 'nested too deeply to read (the transpiler ran out of stack): flatten the deepest arrays or objects';
  let line = e.loc?.line;
  if (line === undefined) {
    const m = /\((\d+):(\d+)\)/.exec(message) ?? new RegExp(`${escapeRe(path)}:(\\d+)`).exec(typeof e.stack === 'string' ? e.stack : '');
    if (m) line = Number(m[1]);
  }
  const reason = message.replace(/\s*\(\d+:\d+\)\s*$/, '').replace(/^.*?:\s*(?=Unexpected|Missing|Unterminated)/, '');
  if (line === undefined) {
    // Last resort for runtime errors: name the line of the file that mentions the failing symbol.
    const sym = /^(\w+) is not defined/.exec(reason)?.[1];
    if (sym) {
      const idx = readFileSync(path, 'utf8')
        .split('\n')
        .findIndex((l) => new RegExp(`\\b${sym}\\b`).test(l));
      if (idx >= 0) line = idx + 1;
    }
  }
  return (line !== undefined ? `line ${line}: ${reason}` : reason).trim();
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
