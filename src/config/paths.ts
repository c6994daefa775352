/** Where aish keeps its files (README: Files). Pure resolution; creating directories is the caller's job. */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
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

/**
 * An XDG base directory from the environment; a relative one is ignored, as the XDG spec says
 * (else the data dir would follow the current directory, and memory would seem lost elsewhere).
 * Read per call, not xdg-basedir's values from import time: tests set XDG_* per run.
 */
function xdgBase(value: string | undefined, ...underHome: string[]): string {
  return value && isAbsolute(value) ? value : join(homedir(), ...underHome);
}

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdgBase(env.XDG_CONFIG_HOME, '.config'), 'aish', 'config.ts');
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
  else dataDir = join(xdgBase(env.XDG_DATA_HOME, '.local', 'share'), 'aish');

  const memoryPath =
    opts.config.memory && opts.config.memory.path ? fromConfig(opts.config.memory.path, opts.configPath) : join(dataDir, 'memory.jsonl');

  return {
    dataDir,
    memoryPath,
    sessionsDir: join(dataDir, 'sessions'),
    inputHistory: join(dataDir, 'input-history'),
  };
}
