/** Memory at start (SPEC §4): load, prune old items if configured, pick what fits the budget. */
import { basename } from 'node:path';
import { lockTimingFromEnv } from '../app/setup';
import type { AishPaths } from '../config/paths';
import type { AishConfig } from '../config/types';
import { itemsToPrune, selectForInjection } from '../memory/select';
import { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { formatError } from '../util/errors';
import type { EngineHost } from './host';

export interface StartupMemory {
  store: MemoryStore;
  injected: MemoryItem[];
}

export async function loadStartupMemory(config: AishConfig, paths: AishPaths, host: EngineHost, now = new Date()): Promise<StartupMemory | null> {
  if (config.memory === false) return null;
  const store = MemoryStore.open(paths.memoryPath, { lock: lockTimingFromEnv() });
  const bad = store.skipped.length;
  if (bad) {
    host.print({ kind: 'warn', text: `${basename(paths.memoryPath)}: ${bad} unreadable line${bad === 1 ? '' : 's'} skipped (see :memory inject)` });
  }
  const old = itemsToPrune(store.items(), config.memory.pruneOlderThanDays, now);
  if (old.length) {
    try {
      const gone = await store.forgetMany(old.map((i) => i.id));
      host.print({ kind: 'info', text: `memory: forgot ${gone.length} item${gone.length === 1 ? '' : 's'} older than ${config.memory.pruneOlderThanDays} days` });
    } catch (err) {
      host.print({ kind: 'warn', text: `memory: pruning skipped: ${formatError(err)}` });
    }
  }
  return { store, injected: selectForInjection(store.items(), config.memory.injectMaxChars) };
}
