/** What start-up asks of memory.jsonl and what it gets back (preload.ts, the worker, the start-up cache). */
import type { MemoryItem } from './types';

export interface PreloadRequest {
  path: string;
  maxChars: number;
  pruneOlderThanDays: number | undefined;
  /** aish's directory at start: project items apply inside their scope only. */
  cwd: string;
}

export type PreloadResult =
  /**
   * `skipped`: lines not used; `keptAsIs`: lines used but reported (invalid UTF-8); `pinnedChars`:
   * what the pinned items alone need; `dangling`: lines of tombstones that name no item.
   */
  | {
      ok: true;
      injected: MemoryItem[];
      total: number;
      skipped: number;
      keptAsIs: number;
      pruneIds: number[];
      pinnedChars: number;
      dangling: number[];
    }
  | { ok: false; error: string };
