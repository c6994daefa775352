/**
 * Public entry for config files: `import { defineConfig } from 'aish'` gives editor completion.
 * At run time aish supplies this module itself, so a config file needs no node_modules.
 */
import type { UserConfig } from './types';

export type { UserConfig, ModelPreset, McpServerConfig, MemoryConfig, AishConfig } from './types';

export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
