/**
 * The start-up selection of a memory.jsonl that has not changed since the last start, kept in
 * `memory.jsonl.startup-cache` (0600): a 1M-item file then shows `mem N` without being read. The
 * cache names the file by size, mtime and inode, and the request it answered (budget, directory);
 * anything else — a hand edit, another aish's append, compaction — and the file is read again.
 * Pruning by age depends on today's date, so a configured `pruneOlderThanDays` never uses it.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import writeFileAtomic from 'write-file-atomic';
import type { PreloadRequest, PreloadResult } from './preload-types';

const VERSION = 1;

export function cachePath(memoryPath: string): string {
  return `${memoryPath}.startup-cache`;
}

interface CacheFile {
  v: number;
  key: string;
  size: number;
  mtimeMs: number;
  ino: number;
  result: Extract<PreloadResult, { ok: true }>;
}

const keyOf = (req: PreloadRequest) => JSON.stringify([req.maxChars, req.cwd]);
const same = (c: Pick<CacheFile, 'size' | 'mtimeMs' | 'ino'>, st: Stats) =>
  c.size === st.size && c.mtimeMs === st.mtimeMs && c.ino === st.ino;

function usable(req: PreloadRequest): boolean {
  return req.pruneOlderThanDays === undefined;
}

/** The cached selection when it answers `req` for the file as it is now; else undefined. */
export function readStartupCache(req: PreloadRequest): PreloadResult | undefined {
  if (!usable(req)) return undefined;
  try {
    const c = JSON.parse(readFileSync(cachePath(req.path), 'utf8')) as CacheFile;
    if (c.v !== VERSION || c.key !== keyOf(req) || !c.result?.ok || !Array.isArray(c.result.injected)) return undefined;
    return same(c, statSync(req.path)) ? c.result : undefined;
  } catch {
    return undefined; // no cache, or not one we wrote: read the file
  }
}

/** The file's identity before it is read, so a change during the read is not cached as the old state. */
export function statBefore(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Keep a fresh selection, when the file did not change while it was read. Never throws. */
export function writeStartupCache(req: PreloadRequest, before: Stats | undefined, result: PreloadResult): void {
  if (!usable(req) || !before || !result.ok) return;
  try {
    const after = statSync(req.path);
    if (!same({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino }, after)) return;
    const c: CacheFile = { v: VERSION, key: keyOf(req), size: after.size, mtimeMs: after.mtimeMs, ino: after.ino, result };
    writeFileAtomic.sync(cachePath(req.path), JSON.stringify(c), { mode: 0o600 });
  } catch {
    // A cache that cannot be written only costs the next start a read.
  }
}
