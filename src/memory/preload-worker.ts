/**
 * Worker thread: reads memory.jsonl and picks what to inject, so a 100k-item file is parsed on
 * the other core while the main thread loads the UI. Only the chosen items travel back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startupSelection, type PreloadRequest, type PreloadResult } from './preload';
import { statBefore, writeStartupCache } from './startup-cache';
import { MemoryStore } from './store';

const req = workerData as PreloadRequest;
let result: PreloadResult;
const before = statBefore(req.path);
try {
  result = startupSelection(MemoryStore.open(req.path), req);
} catch (err) {
  result = { ok: false, error: err instanceof Error ? err.message : String(err) };
}
// Before answering: an aish that quits as soon as memory shows still leaves the cache behind.
writeStartupCache(req, before, result);
parentPort?.postMessage(result);
