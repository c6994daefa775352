/**
 * Memory at start (SPEC §4): load, prune old items if configured, pick what fits the budget. The
 * reading is a preload (preload.ts) that the command line starts in a worker thread as early as it
 * can; the engine's own store is only opened when something writes (pruning, :memory commands).
 */
import { basename } from 'node:path';
import type { AishConfig } from '../config/types';
import { preloadMemory, type PreloadResult } from '../memory/preload';
import { selectForInjection } from '../memory/select';
import type { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { AishError, formatError } from '../util/errors';
import type { EngineHost } from './host';

export function memoryPreloadRequest(config: AishConfig, path: string) {
  return {
    path,
    maxChars: config.memory ? config.memory.injectMaxChars : 0,
    pruneOlderThanDays: config.memory ? config.memory.pruneOlderThanDays : undefined,
  };
}

export async function loadStartupMemory(
  config: AishConfig,
  path: string,
  store: () => MemoryStore,
  host: EngineHost,
  preload?: Promise<PreloadResult>,
): Promise<MemoryItem[]> {
  if (config.memory === false) return [];
  const r = await (preload ?? preloadMemory(memoryPreloadRequest(config, path)));
  if (!r.ok) throw new AishError(r.error);
  if (r.skipped) {
    host.print({ kind: 'warn', text: `${basename(path)}: ${r.skipped} unreadable line${r.skipped === 1 ? '' : 's'} skipped (see :memory inject)` });
  }
  if (r.pruneIds.length === 0) return r.injected;
  try {
    const s = store();
    const gone = await s.forgetMany(r.pruneIds);
    host.print({ kind: 'info', text: `memory: forgot ${gone.length} item${gone.length === 1 ? '' : 's'} older than ${config.memory.pruneOlderThanDays} days` });
    return selectForInjection(s.items(), config.memory.injectMaxChars);
  } catch (err) {
    host.print({ kind: 'warn', text: `memory: pruning skipped: ${formatError(err)}` });
    return r.injected;
  }
}
