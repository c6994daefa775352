/**
 * Every active item through the index, newest first (as a full read lists them: time, then id,
 * descending): the indexed ones read from memory.jsonl by offset a stretch at a time, the tail's
 * merged in, the forgotten left out. What `aish memory list --json` streams without folding the
 * whole file into memory; and the listing `list` shows, with its marks.
 */
import { basename } from 'node:path';
import { AishError } from '../../util/errors';
import { readAt } from '../../util/fs-safe';
import { isoTime } from '../log/parse';
import type { MemorySession } from '../session';
import type { TeamMemory } from '../team/team-memory';
import type { MemoryItem, SkippedLine } from '../types';
import { IndexReader } from './reader';
import { CorruptIndex } from './sidecar';
import { checked, itemsIn } from './record-read';

/** What `list --json` prints: the active items (streamed through the index when it can), their pins, the lines not read. */
export interface ItemListing {
  items: Iterable<MemoryItem>;
  isPinned: (item: MemoryItem) => boolean;
  skipped: readonly SkippedLine[];
}

/** The active items as a listing shows them, with what is in [background] and in conflict. */
export interface Listing extends ItemListing {
  items: readonly MemoryItem[];
  /** Active items in every project (`items` is those that apply here, with `here`). */
  all: number;
  here: boolean;
  injected: ReadonlySet<number>;
  pinnedLeftOut: readonly number[];
  conflicted: ReadonlySet<number>;
  budget: number;
  injecting: boolean;
  team: TeamMemory;
  cwd: string;
}

/** Bytes read at once: a stretch of neighbouring records, one read for many items. */
const STRETCH = 1 << 16;

/** Indexed slots newest first: reversed when the ids are in time order, else sorted by time and id. */
function newestFirst(ix: IndexReader): Uint32Array {
  const n = ix.header!.n;
  const slots = Uint32Array.from({ length: n }, (_, i) => n - 1 - i);
  if (ix.header!.timeOrdered) return slots;
  const { ids, times } = ix.docs();
  return slots.sort((a, b) => times[b]! - times[a]! || ids[b]! - ids[a]!);
}

/** Active items with whether each is pinned, newest first (memory.jsonl is opened only when it has indexed items: there may be none). */
export function* listedItems(ix: IndexReader): Generator<[MemoryItem, boolean]> {
  const h = ix.header;
  const tail = ix.tail;
  const extra = tail?.items ?? [];
  let e = 0;
  if (h) {
    const fd = ix.file();
    const side = ix.sidecar!;
    const offs = side.f64('offs', 0, h.n);
    const spans = side.u32('spans', 0, h.n);
    const { ids, times } = ix.docs();
    const order = newestFirst(ix);
    for (let i = 0; i < order.length;) {
      // A stretch of slots whose records lie close together in the file: one read.
      let lo = offs[order[i]!]!;
      let hi = lo + spans[order[i]!]!;
      let j = i + 1;
      for (; j < order.length; j++) {
        const s = order[j]!;
        const a = Math.min(lo, offs[s]!);
        const b = Math.max(hi, offs[s]! + spans[s]!);
        if (b - a > STRETCH) break;
        [lo, hi] = [a, b];
      }
      const found = itemsIn(readAt(fd, lo, hi - lo), lo);
      for (; i < j; i++) {
        const s = order[i]!;
        if (tail?.dead.has(s)) continue;
        for (; e < extra.length && newer(extra[e]!, times[s]!, ids[s]!); e++) yield [extra[e]!, tail!.state.isPinned(extra[e]!)];
        yield [checked(found.get(ids[s]!), ids[s]!), ix.slotPinned(s)];
      }
    }
  }
  for (; e < extra.length; e++) yield [extra[e]!, tail!.state.isPinned(extra[e]!)];
}

function newer(it: MemoryItem, time: number, id: number): boolean {
  const t = isoTime(it.ts);
  return t > time || (t === time && it.id > id);
}

/**
 * `list --json` without a full read: the active items through an index in step with memory.jsonl
 * (none is built here) and with no unreadable line to name, else null (the full read reports them).
 * The index is closed once the items have been walked; a rewrite of the file meanwhile stops the
 * walk with one line.
 */
export function listedThroughIndex(path: string, applies: ((it: MemoryItem) => boolean) | null): ItemListing | null {
  const ix = new IndexReader(path);
  let inStep: boolean;
  try {
    const c = ix.refresh() ? ix.counts() : null;
    inStep = c !== null && c.unreadable + c.keptAsIs === 0;
  } catch {
    inStep = false;
  }
  if (!inStep) {
    ix.close();
    return null;
  }
  const pinned = new WeakSet<MemoryItem>();
  function* walk(): Generator<MemoryItem> {
    try {
      for (const [it, p] of listedItems(ix)) {
        if (applies && !applies(it)) continue;
        if (p) pinned.add(it);
        yield it;
      }
    } catch (err) {
      if (err instanceof CorruptIndex) throw new AishError(`${basename(path)} changed while it was listed — run the command again`);
      throw err;
    } finally {
      ix.close();
    }
  }
  return { items: walk(), isPinned: (it) => pinned.has(it), skipped: [] };
}

/**
 * The listing `list` shows (a full read): `live` (the REPL) marks what is in [background] now, the
 * command line what the index would choose; `applies`: only the items that apply here.
 */
export async function fullListing(
  m: MemorySession,
  live: boolean,
  applies: ((it: MemoryItem) => boolean) | null,
  here: boolean,
): Promise<Listing> {
  const { conflictedIds, findConflicts, lazyKept } = await import('../review/conflicts');
  const store = m.store();
  store.reload();
  const all = store.items();
  const injecting = m.injecting;
  const bg = injecting ? m.background() : null;
  const shown = live ? m.injected : (bg?.items ?? []);
  // The inbox is read only when there is a conflict: it holds those the user chose to keep whole.
  const kept = lazyKept(() => m.inbox());
  return {
    items: applies ? all.filter(applies) : all,
    all: all.length,
    here,
    injected: new Set(shown.map((it) => it.id)),
    pinnedLeftOut: bg?.pinnedLeftOut ?? [],
    conflicted: conflictedIds(findConflicts(store, kept)),
    isPinned: (it) => store.isPinned(it),
    skipped: store.skipped,
    budget: m.budget,
    injecting,
    team: m.team(),
    cwd: m.cwd,
  };
}
