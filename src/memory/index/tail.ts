/**
 * What was appended to memory.jsonl after the index was built (by this aish or another), read as a
 * small state of its own and laid over the index: new items, tombstones and pins of indexed items.
 * Only a plain tail is used this way — ids above every id the index knows, tombstones and pins
 * naming an item the index or the tail has. Anything else (a hand edit, a compaction, a record the
 * index cannot place) means the index is built again from a full read.
 */
import { statSync } from 'node:fs';
import { FileCursor } from '../log/file-cursor';
import { ingestFile } from '../log/ingest';
import { MemoryState } from '../log/state';
import { stampedAfter } from '../log/hlc';
import { sameItemKey } from '../log/records';
import { unreadableCount, type MemoryItem } from '../types';
import { hash32 } from './layout';
import type { Sidecar } from './sidecar';

/** A tail longer than this is folded into a new index rather than parsed on every start. */
const TAIL_MAX = 2 * 2 ** 20;

export interface Tail {
  /** The tail's own records (items, tombstones, pins, skipped lines). */
  state: MemoryState;
  /** Active items of the tail, newest first. */
  items: MemoryItem[];
  /** Indexed documents (by slot) the tail forgets. */
  dead: Set<number>;
  /** Indexed documents (by slot) whose pin the tail changes: pinned now or not. */
  pins: Map<number, boolean>;
  /** The file as it was when the tail was read (to tell whether it changed since). */
  stat: string;
}

export type TailRead = { kind: 'tail'; tail: Tail } | { kind: 'missing' } | { kind: 'rebuild' };

/** `slotOf`: the slot of an indexed (active) item, or -1. */
export function readTail(path: string, side: Sidecar, slotOf: (id: number) => number): TailRead {
  const h = side.header;
  let stat;
  try {
    const st = statSync(path);
    stat = statKey(st);
    if (st.size - h.file.offset > TAIL_MAX) return { kind: 'rebuild' };
  } catch {
    return { kind: 'missing' };
  }
  const state = new MemoryState();
  const cursor = FileCursor.restore(h.file);
  const r = ingestFile(state, cursor, path);
  if (r === 'missing') return { kind: 'missing' };
  if (r === 'rewritten') return { kind: 'rebuild' };
  const dead = new Set<number>();
  const pins = new Map<number, boolean>();
  for (const it of state.itemsInFileOrder()) if (it.id <= h.maxId || mayBeCopy(it, side)) return { kind: 'rebuild' };
  for (const t of state.forgottenTargets()) {
    if (t.id <= h.maxId) return { kind: 'rebuild' };
    const s = slotOf(t.target);
    if (s >= 0) dead.add(s);
    else if (!state.hadItem(t.target)) return { kind: 'rebuild' };
  }
  for (const [target, p] of state.pinsByTarget()) {
    if (p.id <= h.maxId) return { kind: 'rebuild' };
    const s = slotOf(target);
    if (s >= 0) pins.set(s, p.kind === 'pin');
    else if (!state.hadItem(target)) return { kind: 'rebuild' };
  }
  return { kind: 'tail', tail: { state, items: state.active(), dead, pins, stat } };
}

/**
 * A tail item that may repeat the uid of an indexed record (a line copied by hand): the full read
 * gives the later one a uid of its own (log/uid-copies.ts), which the tail alone cannot know. aish's
 * own appends are stamped after everything in the file (log/hlc.ts), and a received record carries
 * `via`; an item that says what an indexed one says may be a copy whatever it carries.
 */
function mayBeCopy(it: MemoryItem, side: Sidecar): boolean {
  const { uid, hlc, via } = it as { uid?: unknown; hlc?: unknown; via?: unknown };
  if (typeof uid === 'string' && via === undefined && !stampedAfter(hlc, side.header.maxHlc)) return true;
  const want = hash32(sameItemKey(it.scope, it.content));
  const mask = side.header.keyCap - 1;
  for (let i = want & mask; ; i = (i + 1) & mask) {
    const [hash, slot1] = side.u32('khash', i * 2, 2);
    if (slot1 === 0) return false;
    if (hash === want) return true; // the hash alone: a false alarm only costs a rebuild
  }
}

export function statKey(st: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** Skipped lines of the tail: unusable, and used but reported. */
export function tailSkipped(t: Tail): { unreadable: number; keptAsIs: number } {
  const unreadable = unreadableCount(t.state.skipped);
  return { unreadable, keptAsIs: t.state.skipped.length - unreadable };
}
