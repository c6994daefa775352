/**
 * Memory for the system prompt at start-up, read in a worker thread when one is available (the
 * bundle ships `dist/memory-worker.js`), else on this thread. Start it as early as possible.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { scopeFilter } from './project';
import { itemsToPrune, selectBackground } from './select';
import { readStartupCache, statBefore, writeStartupCache } from './startup-cache';
import type { MemoryStore } from './store';
import type { PreloadRequest, PreloadResult } from './preload-types';
import { unreadableCount } from './types';

export type { PreloadRequest, PreloadResult } from './preload-types';

const EMPTY: PreloadResult = { ok: true, injected: [], total: 0, skipped: 0, keptAsIs: 0, pruneIds: [], pinnedChars: 0, dangling: [] };

/** What start-up needs from a loaded memory file; the worker and the fallback both answer with it. */
export function startupSelection(store: MemoryStore, req: PreloadRequest): PreloadResult {
  const items = store.items();
  const unreadable = unreadableCount(store.skipped);
  const bg = selectBackground(items, { maxChars: req.maxChars, isPinned: (it) => store.isPinned(it), applies: scopeFilter(req.cwd) });
  return {
    ok: true,
    injected: bg.items,
    total: items.length,
    skipped: unreadable,
    keptAsIs: store.skipped.length - unreadable,
    pruneIds: itemsToPrune(items, req.pruneOlderThanDays, new Date())
      .filter((i) => !store.isPinned(i))
      .map((i) => i.id),
    pinnedChars: bg.pinnedChars,
    dangling: store.danglingTombstones().map((t) => t.line),
  };
}

/** Without a worker. The store module is imported here, not at the top: start-up must not load it. */
async function inThisThread(req: PreloadRequest): Promise<PreloadResult> {
  const { MemoryStore } = await import('./store');
  const before = statBefore(req.path);
  const r = startupSelection(MemoryStore.open(req.path), req);
  writeStartupCache(req, before, r);
  return r;
}

export function preloadMemory(req: PreloadRequest, workerUrl?: URL): Promise<PreloadResult> {
  if (!existsSync(req.path)) return Promise.resolve(EMPTY);
  // The file as it was at the last start: its selection is known without reading it.
  const cached = readStartupCache(req);
  if (cached) return Promise.resolve(cached);
  if (!workerUrl || !existsSync(workerUrl)) {
    return inThisThread(req).catch((err: unknown) => ({ ok: false as const, error: err instanceof Error ? err.message : String(err) }));
  }
  return new Promise((resolve) => {
    const w = new Worker(workerUrl, { workerData: req });
    let done = false;
    const finish = (r: PreloadResult) => {
      if (done) return;
      done = true;
      resolve(r);
      void w.terminate();
    };
    w.once('message', (r: PreloadResult) => finish(r));
    w.once('error', (err) => finish({ ok: false, error: err.message }));
    w.once('exit', (code) => finish({ ok: false, error: `memory reader exited (${code})` }));
  });
}
