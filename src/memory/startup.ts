/**
 * Memory at start: load, prune old items if configured, pick what fits the budget. The reading is
 * a preload (preload.ts) that the command line starts in a worker thread as early as it can; the
 * store itself is only opened when something writes (pruning, :memory commands) or recall is built.
 */
import { basename } from 'node:path';
import type { AishConfig } from '../config/types';
import { formatError } from '../util/errors';
import { plural } from '../util/time';
import { preloadMemory, type PreloadRequest, type PreloadResult } from './preload';
import type { MemoryStore } from './store';
import type { MemoryItem } from './types';

export function memoryPreloadRequest(config: AishConfig, path: string, cwd: string = process.cwd()): PreloadRequest {
  return {
    path,
    maxChars: config.memory ? config.memory.injectMaxChars : 0,
    pruneOlderThanDays: config.memory ? config.memory.pruneOlderThanDays : undefined,
    cwd,
  };
}

export interface StartupMemory {
  injected: MemoryItem[];
  /** Items were pruned: the selection must be made again from the store. */
  pruned: boolean;
  /** Lines for the user: skipped lines, pruning done or skipped, pinned items over budget. */
  notices: Array<{ kind: 'info' | 'warn'; text: string }>;
}

/** Said at start and on `:memory pin` when the pinned items alone do not fit [background]. */
export function pinnedOverflowNotice(pinnedChars: number, budget: number): string | null {
  return pinnedChars > budget
    ? `pinned memory needs ${pinnedChars} characters, more than memory.injectMaxChars (${budget}): some pinned items are left out of [background] — unpin some or raise the budget`
    : null;
}

/** Throws when the file cannot be read at all; unreadable lines are only reported. */
export async function loadStartupMemory(
  config: AishConfig,
  path: string,
  store: () => MemoryStore,
  preload?: Promise<PreloadResult>,
  hint = ':memory inject',
): Promise<StartupMemory> {
  const notices: StartupMemory['notices'] = [];
  if (config.memory === false) return { injected: [], pruned: false, notices };
  const r = await (preload ?? preloadMemory(memoryPreloadRequest(config, path)));
  if (!r.ok) throw new Error(r.error);
  const name = basename(path);
  if (r.skipped) notices.push({ kind: 'warn', text: `${name}: ${plural(r.skipped, 'unreadable line')} skipped (see ${hint})` });
  if (r.keptAsIs)
    notices.push({ kind: 'warn', text: `${name}: ${plural(r.keptAsIs, 'line')} with invalid UTF-8 kept as is (see ${hint})` });
  if (r.dangling.length) {
    const lines = r.dangling.slice(0, 5).join(', ') + (r.dangling.length > 5 ? ', …' : '');
    notices.push({
      kind: 'warn',
      text: `${name}: ${plural(r.dangling.length, 'tombstone')} for ids with no item (line ${lines}) — they forget nothing`,
    });
  }
  const over = pinnedOverflowNotice(r.pinnedChars, config.memory.injectMaxChars);
  if (over) notices.push({ kind: 'warn', text: over });
  if (r.pruneIds.length === 0) return { injected: r.injected, pruned: false, notices };
  try {
    const gone = await store().forgetMany(r.pruneIds);
    notices.push({
      kind: 'info',
      text: `memory: forgot ${plural(gone.length, 'item')} older than ${config.memory.pruneOlderThanDays} days`,
    });
    return { injected: r.injected, pruned: true, notices };
  } catch (err) {
    notices.push({ kind: 'warn', text: `memory: pruning skipped: ${formatError(err)}` });
    return { injected: r.injected, pruned: false, notices };
  }
}
