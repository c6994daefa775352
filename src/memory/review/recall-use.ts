/**
 * When items were last sent in [recall]: `memory.jsonl.recalled`, a local side file that
 * `:memory review --stale` reads to tell an item the model still gets from one nobody asks about.
 * One line per turn that recalled something (`{"t": ISO, "uids": […]}`), appended after the turn's
 * recall is chosen, on the next tick and never awaited: a failure costs a note, never the turn.
 * Bounded: past MAX_BYTES it is folded to one line per item, the KEEP most recently recalled. Torn
 * and hand-broken lines are passed over. Keyed by uid, so a compaction or a received copy keeps it.
 */
import { closeSync, constants, fchmodSync, fstatSync, writeSync } from 'node:fs';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { errnoCode } from '../../util/errors';
import { openRegular, readAt, readRegularFile } from '../../util/fs-safe';
import { uidOf } from '../log/identity';
import { isoTime } from '../log/parse';
import { jsonObjectLines } from '../side-file';
import type { MemoryItem } from '../types';

/** A turn's line is ~40 bytes plus ~30 per item: thousands of turns between folds. */
const MAX_BYTES = 512 * 1024;
/** Items kept by a fold (~75 bytes each): the most recently recalled. */
const KEEP = 4000;
/** A hand-grown file is read this far at most. */
const MAX_READ = 8 * 1024 * 1024;

export function recallUsePath(memoryPath: string): string {
  return `${memoryPath}.recalled`;
}

/** Note that the items of `sent` went out in [recall] at `now`; written on the next tick, errors swallowed. */
export function noteRecalled(memoryPath: string, sent: ReadonlyArray<{ item: MemoryItem }>, now = new Date()): void {
  if (sent.length === 0) return;
  const line = JSON.stringify({ t: now.toISOString(), uids: sent.map((r) => uidOf(r.item)) }) + '\n';
  setImmediate(() => {
    try {
      append(recallUsePath(memoryPath), line);
    } catch {
      // An unwritable note only makes an item look unused to the stale review, where keeping it is one key.
    }
  });
}

function append(path: string, line: string): void {
  // openRegular: a FIFO put in its place is refused, never waited on; O_NOFOLLOW: no symlink is written through.
  let fd: number;
  try {
    fd = openRegular(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  } catch (err) {
    if (errnoCode(err) === 'ENOTREG') return;
    throw err;
  }
  let size: number;
  try {
    const st = fstatSync(fd);
    if ((st.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    // After a torn line (a crash mid-write) the note starts on a fresh line, so it still counts.
    const torn = st.size > 0 && readAt(fd, st.size - 1, 1)[0] !== 0x0a;
    const text = Buffer.from((torn ? '\n' : '') + line, 'utf8');
    // Not synced: a note lost in a power cut only makes an item look unused.
    writeSync(fd, text);
    size = st.size + text.length;
  } finally {
    closeSync(fd);
  }
  if (size > MAX_BYTES) fold(path);
}

/** One line per item, the KEEP most recently recalled, in one atomic rewrite (0600). */
function fold(path: string): void {
  const latest = [...readRecallUseFile(path)].sort((a, b) => b[1] - a[1]).slice(0, KEEP);
  const text = latest.map(([uid, t]) => JSON.stringify({ t: new Date(t).toISOString(), uids: [uid] }) + '\n').join('');
  // Losing it in a power cut costs only notes, as above.
  writeFileAtomicSync(path, text, { mode: 0o600, fsync: false });
}

/** uid → when it was last sent in [recall] (ms). Empty when there is no record (or it cannot be read). */
export function readRecallUse(memoryPath: string): Map<string, number> {
  return readRecallUseFile(recallUsePath(memoryPath));
}

function readRecallUseFile(path: string): Map<string, number> {
  const out = new Map<string, number>();
  let text: string;
  try {
    // Its newest part when it is long (the first line read may be cut: passed over like a torn one).
    text = readRegularFile(path, { last: MAX_READ }).toString('utf8');
  } catch {
    return out;
  }
  for (const o of jsonObjectLines(text)) {
    const t = typeof o.t === 'string' ? isoTime(o.t) : NaN;
    if (Number.isNaN(t) || !Array.isArray(o.uids)) continue;
    for (const uid of o.uids) if (typeof uid === 'string' && t > (out.get(uid) ?? -Infinity)) out.set(uid, t);
  }
  return out;
}
