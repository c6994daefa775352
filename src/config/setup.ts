/** Config + paths, the first thing every front end does. No directories are created here. */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadConfig } from './load';
import { resolvePaths, type AishPaths } from './paths';
import { ConfigError, UsageError } from '../util/errors';
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
  checkDataDir(paths.dataDir);
  return { config, configPath: path, paths };
}

/**
 * A data directory that is a file (or under one) would otherwise fail later, once per store, with a
 * raw errno. Said once, here. A missing directory is fine: it is created when first written.
 */
function checkDataDir(dir: string): void {
  for (let d = dir; ; d = dirname(d)) {
    let isDir: boolean;
    try {
      isDir = statSync(d).isDirectory();
    } catch {
      if (dirname(d) === d) return;
      continue;
    }
    if (isDir) return;
    const what = d === dir ? `${dir} is a file, not a directory` : `${dir}: ${d} is a file, not a directory`;
    throw new UsageError(`data directory ${what} — pass a directory with --data-dir (or AISH_DATA_DIR); it is created if missing`);
  }
}

/** `AISH_CAPTURE=off|ask|auto` overrides memory.capture for one run (CI jobs, scripts, tests). */
function captureFromEnv(config: AishConfig, value: string | undefined): void {
  if (value === undefined || value === '') return;
  if (!(CAPTURE_MODES as readonly string[]).includes(value))
    throw new ConfigError(`AISH_CAPTURE must be ${CAPTURE_MODES.join(', ')} (got ${JSON.stringify(value.slice(0, 40))})`);
  if (config.memory) config.memory.capture = value as CaptureMode;
}
