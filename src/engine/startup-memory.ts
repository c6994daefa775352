/** Memory at start (SPEC §4): load, prune old items if configured, pick what fits the budget. */
import { basename } from 'node:path';
import type { AishConfig } from '../config/types';
import { itemsToPrune, selectForInjection } from '../memory/select';
import type { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { formatError } from '../util/errors';
import type { EngineHost } from './host';

/** The items to inject, from the engine's own store (one store per engine: no stale second copy). */
export async function loadStartupMemory(config: AishConfig, store: MemoryStore, host: EngineHost, now = new Date()): Promise<MemoryItem[]> {
  if (config.memory === false) return [];
  const bad = store.skipped.length;
  if (bad) {
    host.print({ kind: 'warn', text: `${basename(store.path)}: ${bad} unreadable line${bad === 1 ? '' : 's'} skipped (see :memory inject)` });
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
  return selectForInjection(store.items(), config.memory.injectMaxChars);
}
