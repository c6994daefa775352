/**
 * Finds and loads the user's config module (--config, $AISH_CONFIG, else the XDG default). jiti is imported only when a file exists,
 * so a user without a config pays nothing for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../util/errors';
import { expandHome } from '../util/paths';
import { defaultConfigPath } from './paths';
import { DEFAULT_CONFIG, type AishConfig } from './types';
import { validateConfig } from './validate';
import * as define from './define';

export interface LoadedConfig {
  config: AishConfig;
  /** The file the config came from; null when defaults are used. */
  path: string | null;
}

export function locateConfig(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): { path: string; explicit: boolean } {
  if (flag) return { path: resolve(expandHome(flag)), explicit: true };
  if (env.AISH_CONFIG) return { path: resolve(expandHome(env.AISH_CONFIG)), explicit: true };
  return { path: defaultConfigPath(env), explicit: false };
}

export async function loadConfig(flag?: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const { path, explicit } = locateConfig(flag, env);
  if (!existsSync(path)) {
    if (explicit) throw new ConfigError(`config file not found: ${path} (check --config or $AISH_CONFIG)`);
    return { config: structuredClone(DEFAULT_CONFIG), path: null };
  }
  const raw = await importConfigModule(path);
  return { config: validateConfig(raw, path), path };
}

async function importConfigModule(path: string): Promise<unknown> {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, {
    moduleCache: false,
    interopDefault: true,
    // `import { defineConfig } from 'aish'` works without aish in the config's node_modules.
    virtualModules: { aish: define, 'aish/config': define },
  });
  let mod: unknown;
  try {
    mod = await jiti.import(path);
  } catch (err) {
    throw new ConfigError(`config ${path}: ${describeLoadError(err, path)}`);
  }
  if (typeof mod === 'object' && mod !== null && 'default' in mod) {
    const def = (mod as { default: unknown }).default;
    return typeof def === 'function' ? await (def as () => unknown)() : def;
  }
  throw new ConfigError(`config ${path}: no default export (write \`export default defineConfig({ … })\`)`);
}

/** "line 3: Unexpected token" from whatever shape the transpiler or runtime threw. */
function describeLoadError(err: unknown, path: string): string {
  const e = err as { message?: string; loc?: { line: number; column: number }; stack?: string };
  const message = (e.message ?? String(err)).split('\n')[0]!.replace(/^\[.*?\]\s*/, '');
  let line = e.loc?.line;
  if (line === undefined) {
    const m = /\((\d+):(\d+)\)/.exec(message) ?? new RegExp(`${escapeRe(path)}:(\\d+)`).exec(e.stack ?? '');
    if (m) line = Number(m[1]);
  }
  const reason = message.replace(/\s*\(\d+:\d+\)\s*$/, '').replace(/^.*?:\s*(?=Unexpected|Missing|Unterminated)/, '');
  if (line === undefined) {
    // Last resort for runtime errors: name the line of the file that mentions the failing symbol.
    const sym = /^(\w+) is not defined/.exec(reason)?.[1];
    if (sym) {
      const idx = readFileSync(path, 'utf8').split('\n').findIndex((l) => new RegExp(`\\b${sym}\\b`).test(l));
      if (idx >= 0) line = idx + 1;
    }
  }
  return (line !== undefined ? `line ${line}: ${reason}` : reason).trim();
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
