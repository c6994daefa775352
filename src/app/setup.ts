/** Config + paths, the first thing every front end does. No directories are created here. */
import { loadConfig } from '../config/load';
import { resolvePaths, type AishPaths } from '../config/paths';
import type { AishConfig } from '../config/types';
import type { LockTiming } from '../memory/lock';

export interface GlobalFlags {
  config?: string;
  dataDir?: string;
  memory?: boolean; // commander's --no-memory sets memory=false
}

export interface Setup {
  config: AishConfig;
  configPath: string | null;
  paths: AishPaths;
}

export async function setup(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env): Promise<Setup> {
  const { config, path } = await loadConfig(flags.config, env);
  const paths = resolvePaths({ dataDirFlag: flags.dataDir, env, config, configPath: path });
  return { config, configPath: path, paths };
}

/** Test and debugging knobs for the memory lock; defaults otherwise (NOTES.md). */
export function lockTimingFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<LockTiming> {
  const t: Partial<LockTiming> = {};
  const wait = Number(env.AISH_LOCK_WAIT_MS);
  const stale = Number(env.AISH_LOCK_STALE_MS);
  if (env.AISH_LOCK_WAIT_MS && Number.isFinite(wait) && wait >= 0) t.waitMs = wait;
  if (env.AISH_LOCK_STALE_MS && Number.isFinite(stale) && stale >= 2000) t.staleMs = stale;
  return t;
}
