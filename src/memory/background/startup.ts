/**
 * Memory at start: [background] chosen from the index (memory-index.ts: a header and the first
 * entries of its precomputed order, the chosen items read from memory.jsonl by offset), the notices
 * a full read would give (unreadable lines, dangling tombstones, pinned items left out, by id), and
 * pruning of old items when configured. The store itself is opened only to write (pruning).
 */
import { basename } from 'node:path';
import type { AishConfig } from '../../config/types';
import { formatError } from '../../util/errors';
import { plural } from '../../util/time';
import { indexBackground } from '../index/background';
import type { MemoryIndex } from '../index/memory-index';
import { pinnedLeftOutNotice } from './pins-left-out';
import { indexPruneIds } from '../index/prune';
import type { MemoryStore } from '../store';
import type { MemoryItem } from '../types';

export interface StartupMemory {
  injected: MemoryItem[];
  /** Items were pruned: the selection must be made again. */
  pruned: boolean;
  /** Lines for the user: skipped lines, pruning done or skipped, pinned items over budget. */
  notices: Array<{ kind: 'info' | 'warn'; text: string }>;
}

/** Throws when memory.jsonl cannot be read at all; unreadable lines are only reported. */
export async function loadStartupMemory(
  config: AishConfig,
  budget: number,
  index: MemoryIndex,
  store: () => MemoryStore,
  cwd: string,
  hint = ':memory inject',
): Promise<StartupMemory> {
  const notices: StartupMemory['notices'] = [];
  if (config.memory === false) return { injected: [], pruned: false, notices };
  index.refresh();
  const counts = index.counts();
  const name = basename(index.path);
  if (counts.unreadable)
    notices.push({ kind: 'warn', text: `${name}: ${plural(counts.unreadable, 'unreadable line')} skipped (see ${hint})` });
  if (counts.keptAsIs)
    notices.push({ kind: 'warn', text: `${name}: ${plural(counts.keptAsIs, 'line')} kept with a warning (see ${hint})` });
  if (counts.dangling.length) {
    const lines = counts.dangling.slice(0, 5).join(', ') + (counts.dangling.length > 5 ? ', …' : '');
    notices.push({
      kind: 'warn',
      text: `${name}: ${plural(counts.dangling.length, 'tombstone')} for ids with no item (line ${lines}) — they forget nothing`,
    });
  }
  const bg = index.read((ix) => indexBackground(ix, budget, cwd));
  const over = pinnedLeftOutNotice(bg, budget);
  if (over) notices.push({ kind: 'warn', text: over });
  const pruneIds = indexPruneIds(index, config.memory.pruneOlderThanDays, new Date());
  if (pruneIds.length === 0) return { injected: bg.items, pruned: false, notices };
  try {
    const gone = await store().forgetMany(pruneIds);
    notices.push({
      kind: 'info',
      text: `memory: forgot ${plural(gone.length, 'item')} older than ${config.memory.pruneOlderThanDays} days`,
    });
    return { injected: bg.items, pruned: true, notices };
  } catch (err) {
    notices.push({ kind: 'warn', text: `memory: pruning skipped: ${formatError(err)}` });
    return { injected: bg.items, pruned: false, notices };
  }
}
