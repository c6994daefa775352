/**
 * Memory at start: load, prune old items if configured, pick what fits the budget. The reading is
 * a preload (preload.ts) that the command line starts in a worker thread as early as it can; the
 * store itself is only opened when something writes (pruning, :memory commands).
 */
import { basename } from 'node:path';
import type { AishConfig } from '../config/types';
import { formatError } from '../util/errors';
import { plural } from '../util/time';
import { preloadMemory, type PreloadResult } from './preload';
import { selectForInjection } from './select';
import type { MemoryStore } from './store';
import type { MemoryItem } from './types';

export function memoryPreloadRequest(config: AishConfig, path: string) {
  return {
    path,
    maxChars: config.memory ? config.memory.injectMaxChars : 0,
    pruneOlderThanDays: config.memory ? config.memory.pruneOlderThanDays : undefined,
  };
}

export interface StartupMemory {
  injected: MemoryItem[];
  /** Lines for the user: skipped lines, pruning done or skipped. */
  notices: Array<{ kind: 'info' | 'warn'; text: string }>;
}

/** Throws when the file cannot be read at all; unreadable lines are only reported. */
export async function loadStartupMemory(
  config: AishConfig,
  path: string,
  store: () => MemoryStore,
  preload?: Promise<PreloadResult>,
): Promise<StartupMemory> {
  const notices: StartupMemory['notices'] = [];
  if (config.memory === false) return { injected: [], notices };
  const r = await (preload ?? preloadMemory(memoryPreloadRequest(config, path)));
  if (!r.ok) throw new Error(r.error);
  if (r.skipped) notices.push({ kind: 'warn', text: `${basename(path)}: ${plural(r.skipped, 'unreadable line')} skipped (see :memory inject)` });
  if (r.keptAsIs) notices.push({ kind: 'warn', text: `${basename(path)}: ${plural(r.keptAsIs, 'line')} with invalid UTF-8 kept as is (see :memory inject)` });
  if (r.pruneIds.length === 0) return { injected: r.injected, notices };
  try {
    const s = store();
    const gone = await s.forgetMany(r.pruneIds);
    notices.push({ kind: 'info', text: `memory: forgot ${plural(gone.length, 'item')} older than ${config.memory.pruneOlderThanDays} days` });
    return { injected: selectForInjection(s.items(), config.memory.injectMaxChars), notices };
  } catch (err) {
    notices.push({ kind: 'warn', text: `memory: pruning skipped: ${formatError(err)}` });
    return { injected: r.injected, notices };
  }
}
