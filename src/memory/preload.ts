/**
 * Memory for the system prompt at start-up, read in a worker thread when one is available (the
 * bundle ships `dist/memory-worker.js`), else on this thread. Start it as early as possible.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { itemsToPrune, selectForInjection } from './select';
import type { MemorySnapshot } from './store';
import { unreadableCount, type MemoryItem } from './types';

export interface PreloadRequest {
  path: string;
  maxChars: number;
  pruneOlderThanDays: number | undefined;
}

export type PreloadResult =
  /** `skipped`: lines not used; `keptAsIs`: lines used but reported (invalid UTF-8). */
  | { ok: true; injected: MemoryItem[]; total: number; skipped: number; keptAsIs: number; pruneIds: number[] }
  | { ok: false; error: string };

/** What start-up needs from a loaded memory file; the worker and the fallback both answer with it. */
export function startupSelection(snap: MemorySnapshot, req: PreloadRequest): PreloadResult {
  const unreadable = unreadableCount(snap.skipped);
  return {
    ok: true,
    injected: selectForInjection(snap.items, req.maxChars),
    total: snap.items.length,
    skipped: unreadable,
    keptAsIs: snap.skipped.length - unreadable,
    pruneIds: itemsToPrune(snap.items, req.pruneOlderThanDays, new Date()).map((i) => i.id),
  };
}

/** Without a worker. The store module is imported here, not at the top: start-up must not load it. */
async function inThisThread(req: PreloadRequest): Promise<PreloadResult> {
  const { loadMemory } = await import('./store');
  return startupSelection(loadMemory(req.path), req);
}

export function preloadMemory(req: PreloadRequest, workerUrl?: URL): Promise<PreloadResult> {
  if (!existsSync(req.path)) return Promise.resolve({ ok: true, injected: [], total: 0, skipped: 0, keptAsIs: 0, pruneIds: [] });
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
