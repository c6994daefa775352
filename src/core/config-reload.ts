/**
 * `:config reload` (and `:model NAME` for a preset added since start): read the config file again
 * and apply what can change in a running session — the model presets. Everything else that changed
 * is named, to take effect at the next start: the memory store, MCP servers, the sandbox and the
 * window are built once, and swapping them under a live conversation would surprise more than help.
 */
import { loadConfig } from '../config/load';
import type { Setup } from '../config/setup';
import type { AishConfig } from '../config/types';
import { tildify } from '../util/paths';

export interface ReloadResult {
  path: string | null;
  /** Top-level keys applied now. */
  applied: string[];
  /** Top-level keys that changed but apply at the next start. */
  atRestart: string[];
}

const LIVE: ReadonlyArray<keyof AishConfig> = ['models', 'defaultModel', 'editor'];

export async function reloadConfig(setup: Setup, env: NodeJS.ProcessEnv): Promise<ReloadResult> {
  const { config, path } = await loadConfig(setup.configPath ?? undefined, env);
  const cur = setup.config;
  const applied: string[] = [];
  const atRestart: string[] = [];
  for (const key of Object.keys(config) as Array<keyof AishConfig>) {
    if (JSON.stringify(config[key]) === JSON.stringify(cur[key])) continue;
    if (LIVE.includes(key)) {
      // Models reads config.models, and the REPL config.editor, on every use: replacing the entry is enough.
      (cur as unknown as Record<string, unknown>)[key] = config[key];
      applied.push(key);
    } else atRestart.push(key);
  }
  if (path) setup.configPath = path;
  return { path, applied, atRestart };
}

export function describeReload(r: ReloadResult, presets: readonly string[]): string {
  const where = r.path ? tildify(r.path) : 'no config file (the defaults)';
  const now = r.applied.length ? `applied ${r.applied.join(', ')} (presets: ${presets.join(', ')})` : 'nothing to apply now';
  const later = r.atRestart.length
    ? `; ${r.atRestart.join(', ')} changed too — restart aish for ${r.atRestart.length === 1 ? 'it' : 'them'}`
    : '';
  return `reloaded ${where}: ${now}${later}`;
}
