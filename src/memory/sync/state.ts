/**
 * `sync/state.json`: who this store writes as and how far it has read. Replaced atomically after
 * each step that moves it, so a sync killed at any moment finds either the old or the new state,
 * and everything between is found again (ledger.ts says how).
 */
import { randomBytes } from 'node:crypto';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { readTextIfExists } from '../../util/read-text';
import type { CursorState } from '../log/file-cursor';

export interface SyncState {
  v: 1;
  /** The remote these positions are about; another remote starts over. */
  remote: string;
  /** This store's writer id: its file is `writers/<writer>.jsonl`. */
  writer: string;
  /** memory.jsonl read (and its new records put in the outbox) up to here; null: from the start. */
  send: CursorState | null;
  /** The highest stamp read up to `send` ('' when none; absent in a state of an older aish). */
  sendHlc?: string;
  /** Our current part (paths.ts; absent: 1) and how many of its bytes the remote holds from us. */
  part?: number;
  pushed: number;
  /** Other writers' files (by part key): bytes read. */
  read: Record<string, number>;
  /** When the last sync finished. */
  last?: string;
}

/** A new random writer id: never derived from the machine or the config, so two copies of one config never share one. */
export function newWriterId(): string {
  return randomBytes(8).toString('hex');
}

function freshState(remote: string, writer = newWriterId()): SyncState {
  return { v: 1, remote, writer, send: null, pushed: 0, read: {} };
}

/** The saved state as it is, when it is one (any remote); undefined when missing or unusable. */
export function readState(path: string): SyncState | undefined {
  let saved: Partial<SyncState> | undefined;
  try {
    // A missing file reads as '', which does not parse either.
    saved = JSON.parse(readTextIfExists(path)) as Partial<SyncState>;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return undefined;
  }
  const ok =
    saved?.v === 1 &&
    typeof saved.remote === 'string' &&
    typeof saved.writer === 'string' &&
    /^[0-9a-f]{16}$/.test(saved.writer) &&
    typeof saved.pushed === 'number' &&
    typeof saved.read === 'object' &&
    saved.read !== null;
  return ok ? (saved as SyncState) : undefined;
}

/** The saved state for `remote`, or a fresh one (another remote's, or none: positions start over; the writer id is kept). */
export function loadState(path: string, remote: string): { state: SyncState; fresh: boolean } {
  const saved = readState(path);
  if (saved && saved.remote === remote) return { state: saved, fresh: false };
  return { state: freshState(remote, saved?.writer), fresh: true };
}

export function saveState(path: string, s: SyncState): void {
  writeFileAtomicSync(path, JSON.stringify(s) + '\n', { mode: 0o600 });
}
