/** Config + paths, the first thing every front end does. No directories are created here. */
import { loadConfig } from './load';
import { resolvePaths, type AishPaths } from './paths';
import type { AishConfig } from './types';

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
