/** Where aish keeps its files (README: Files). Pure resolution; creating directories is the caller's job. */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { xdgConfig, xdgData } from 'xdg-basedir';
import { expandHome } from '../util/paths';
import type { AishConfig } from './types';

export interface AishPaths {
  dataDir: string;
  memoryPath: string;
  sessionsDir: string;
  inputHistory: string;
}

/** Relative paths in a config file mean "relative to that file", like most tools' configs. */
function fromConfig(p: string, configPath: string | null): string {
  const e = expandHome(p);
  if (isAbsolute(e)) return e;
  return resolve(configPath ? dirname(configPath) : process.cwd(), e);
}

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  // xdg-basedir reads the environment at import; honour later changes (tests set XDG_* per run).
  const base = env.XDG_CONFIG_HOME || xdgConfig || join(homedir(), '.config');
  return join(base, 'aish', 'config.ts');
}

export function resolvePaths(opts: {
  dataDirFlag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  config: AishConfig;
  configPath: string | null;
}): AishPaths {
  const env = opts.env ?? process.env;
  let dataDir: string;
  if (opts.dataDirFlag) dataDir = resolve(expandHome(opts.dataDirFlag));
  else if (env.AISH_DATA_DIR) dataDir = resolve(expandHome(env.AISH_DATA_DIR));
  else if (opts.config.history.dir) dataDir = fromConfig(opts.config.history.dir, opts.configPath);
  else dataDir = join(env.XDG_DATA_HOME || xdgData || join(homedir(), '.local', 'share'), 'aish');

  const memoryPath =
    opts.config.memory && opts.config.memory.path ? fromConfig(opts.config.memory.path, opts.configPath) : join(dataDir, 'memory.jsonl');

  return {
    dataDir,
    memoryPath,
    sessionsDir: join(dataDir, 'sessions'),
    inputHistory: join(dataDir, 'input-history'),
  };
}
