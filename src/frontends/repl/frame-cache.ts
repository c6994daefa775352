/**
 * Keeps the REPL's settled first frame for the next start (bin/frame-cache.cjs reads it and draws
 * it before the bundle loads). One JSON file in the user's cache directory (0600 in a 0700
 * directory), a few entries, one per launcher key (bundle, directory, terminal size, environment);
 * each entry names the files the frame was drawn from by size, mtime and inode, or as absent.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { FrameCacheSlot } from './first-frame';

const VERSION = 1;
const MAX_ENTRIES = 32; // one per directory and terminal size in use, most recent first

/** [path, size, mtimeMs, ino], or [path] for a file that does not exist. */
export type FileMark = [string, number, number, number] | [string];

export interface FrameEntry {
  key: string;
  files: FileMark[];
  frame: string;
}

export function markFiles(paths: string[]): FileMark[] {
  return paths.map((p) => {
    const st = statSync(p, { throwIfNoEntry: false });
    return st ? [p, st.size, st.mtimeMs, st.ino] : [p];
  });
}

function entriesIn(path: string): FrameEntry[] {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { v?: unknown; entries?: unknown };
    return data.v === VERSION && Array.isArray(data.entries) ? (data.entries as FrameEntry[]) : [];
  } catch {
    return []; // none yet, or not ours: start over
  }
}

/** Keep `frame` as this start's settled frame, newest first. Never throws: a cache that cannot be written costs only the next start's early frame. */
export function saveFrame(slot: FrameCacheSlot, frame: string, files: string[]): boolean {
  try {
    const entry: FrameEntry = { key: slot.key, files: markFiles(files), frame };
    const entries = [entry, ...entriesIn(slot.path).filter((e) => e && e.key !== slot.key)].slice(0, MAX_ENTRIES);
    mkdirSync(dirname(slot.path), { recursive: true, mode: 0o700 });
    writeFileAtomic.sync(slot.path, JSON.stringify({ v: VERSION, entries }), { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
