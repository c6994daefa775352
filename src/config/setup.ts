/** Config + paths, the first thing every front end does. No directories are created here. */
import { loadConfig } from './load';
import { resolvePaths, type AishPaths } from './paths';
import { ConfigError } from '../util/errors';
import { CAPTURE_MODES, type AishConfig, type CaptureMode } from './types';

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
  captureFromEnv(config, env.AISH_CAPTURE);
  const paths = resolvePaths({ dataDirFlag: flags.dataDir, env, config, configPath: path });
  return { config, configPath: path, paths };
}

/** `AISH_CAPTURE=off|ask|auto` overrides memory.capture for one run (CI jobs, scripts, tests). */
function captureFromEnv(config: AishConfig, value: string | undefined): void {
  if (value === undefined || value === '') return;
  if (!(CAPTURE_MODES as readonly string[]).includes(value))
    throw new ConfigError(`AISH_CAPTURE must be ${CAPTURE_MODES.join(', ')} (got ${JSON.stringify(value.slice(0, 40))})`);
  if (config.memory) config.memory.capture = value as CaptureMode;
}
