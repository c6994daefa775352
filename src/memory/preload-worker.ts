/**
 * Worker thread: reads memory.jsonl and picks what to inject, so a 100k-item file is parsed on
 * the other core while the main thread loads the UI. Only the chosen items travel back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { itemsToPrune, selectForInjection } from './select';
import { loadMemory } from './store';
import type { PreloadRequest, PreloadResult } from './preload';

const req = workerData as PreloadRequest;
let result: PreloadResult;
try {
  const snap = loadMemory(req.path);
  result = {
    ok: true,
    injected: selectForInjection(snap.items, req.maxChars),
    total: snap.items.length,
    skipped: snap.skipped.length,
    pruneIds: itemsToPrune(snap.items, req.pruneOlderThanDays, new Date()).map((i) => i.id),
  };
} catch (err) {
  result = { ok: false, error: err instanceof Error ? err.message : String(err) };
}
parentPort?.postMessage(result);
