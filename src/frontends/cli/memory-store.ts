/** The store as `aish memory …` commands open it; with `memory: false` they refuse and touch nothing. */
import type { Setup } from '../../config/setup';
import { lockTimingFromEnv } from '../../memory/log/lock';
import { useConfirmedProjects } from '../../memory/project/project-trust';
import { MemoryStore } from '../../memory/store';
import { UsageError } from '../../util/errors';
import { warn } from './output';

/** `memory: false` in the config: every memory command refuses, and nothing is read or written. */
export function memoryOn(s: Setup): void {
  if (s.config.memory === false)
    throw new UsageError(
      `memory is off in the config (memory: false in ${s.configPath ?? 'the config'}) — nothing done; remove that line to use aish memory`,
    );
}

export function openStore(s: Setup): MemoryStore {
  memoryOn(s);
  // `list --here` shows what applies here: identity items only at checkouts the user confirmed.
  useConfirmedProjects(s.paths.memoryPath, storeOptions());
  return MemoryStore.open(s.paths.memoryPath, storeOptions());
}

export function storeOptions(): { lock: ReturnType<typeof lockTimingFromEnv>; notice: (text: string) => void } {
  return { lock: lockTimingFromEnv(), notice: (t) => warn(`warning: ${t}`) };
}
