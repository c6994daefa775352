/**
 * [background] from the index: the same choice as selectBackground over a full read (the segments
 * of background-order.ts in its TRY_ORDER, filling the budget with the same rule), walking the
 * index's precomputed order with each candidate's rendered length — so only the chosen items are
 * read from memory.jsonl. The tail's items, and indexed items whose pin it changed, are merged in
 * by time (pin time, for the pinned); items it forgets are left out. What is left out is counted from the header's per-scope
 * counts and listed only as far as asked (the plan shows the first few of a million).
 */
import { isPinSegment, segmentOf, SEGMENTS, TRY_ORDER } from '../background/background-order';
import { ageChars, BACKGROUND_HEADER, backgroundLine } from '../background/blocks';
import { blockFull, lineFits } from '../background/budget';
import { isoTime } from '../log/parse';
import { pinTime } from '../log/pin-time';
import { scopeMatcher } from '../project/project';
import type { MemoryItem } from '../types';
import { ORDER_BLOCK } from './layout';
import type { MemoryIndex } from './memory-index';

export interface IndexBackground {
  items: MemoryItem[];
  /** Characters the pinned items that apply need (header included). */
  pinnedChars: number;
  /** Pinned items that apply here but did not fit (reason: budget), most recently pinned first. */
  pinnedLeftOut: number[];
  /** Every pinned item's id, whatever its scope. */
  pinnedIds: ReadonlySet<number>;
  /** How many applied here but did not fit, and how many are project items of other directories. */
  overBudgetCount: number;
  outOfScopeCount: number;
  /** Ids that applied here but did not fit, in the order they were tried, read as far as iterated. */
  overBudget(): Iterable<number>;
  /** Ids of the first `limit` project items of other directories, newest first. */
  outOfScope(limit?: number): number[];
}

interface Candidate {
  /** Its pin time when pinned, else its own. */
  time: number;
  id: number;
  len: number;
  applies: boolean;
  /** An indexed item (read when chosen) … */
  slot?: number;
  /** … or one already at hand (the tail's, or an indexed one whose pin changed). */
  item?: MemoryItem;
}

/** Per stored segment (background-order.ts): the tail's items and the indexed ones that changed group, newest first. */
interface Walk {
  extras: Candidate[][];
  moved: Set<number>;
  /** Whether an indexed scope number applies here. */
  scopeOk: (scope: number) => boolean;
}

/** No [background] (memory off, nothing applies). */
export const NONE: IndexBackground = {
  items: [],
  pinnedChars: 0,
  pinnedLeftOut: [],
  pinnedIds: new Set(),
  overBudgetCount: 0,
  outOfScopeCount: 0,
  overBudget: () => [],
  outOfScope: () => [],
};

/** Chosen items are read; what is left out is counted, and listed when asked. */
export function indexBackground(ix: MemoryIndex, maxChars: number, cwd: string, now = Date.now()): IndexBackground {
  const h = ix.header;
  if (!h) return NONE;
  const inScope = scopeMatcher(cwd);
  const scopeApplies = h.scopes.map(inScope);
  const scopeOk = (n: number) => n === 0 || scopeApplies[n - 1] === true;
  const applies = (it: Pick<MemoryItem, 'scope'>) => it.scope === undefined || inScope(it.scope);
  const tail = ix.tail;
  const extras: Candidate[][] = Array.from({ length: SEGMENTS }, () => []);
  const moved = new Set<number>();
  const pins = tail?.state.pinsByTarget() ?? new Map();
  const extra = (it: MemoryItem, pinned: boolean) =>
    extras[segmentOf(it, pinned)]!.push({
      time: pinned ? pinTime(pins, it) : isoTime(it.ts),
      id: it.id,
      len: backgroundLine(it, now).length,
      applies: applies(it),
      item: it,
    });
  for (const it of tail?.items ?? []) extra(it, tail!.state.isPinned(it));
  for (const [slot, pinned] of tail?.pins ?? []) {
    if (tail!.dead.has(slot)) continue;
    const it = ix.get(ix.docs().ids[slot]!);
    if (!it) continue;
    moved.add(slot);
    extra(it, pinned);
  }
  for (const g of extras) g.sort((a, b) => b.time - a.time || b.id - a.id);
  const w: Walk = { extras, moved, scopeOk };
  const { items, pinnedChars, pinnedLeftOut, pinnedIds } = choose(ix, w, maxChars, now);

  // Out of scope: the header's count per scope, less the tail's forgets, plus the tail's own.
  let outOfScopeCount = 0;
  h.scopeCounts.forEach((n, i) => (outOfScopeCount += scopeApplies[i] ? 0 : n));
  if (outOfScopeCount) for (const slot of tail?.dead ?? []) if (!scopeOk(ix.lineAt(slot)[1])) outOfScopeCount--;
  for (const it of tail?.items ?? []) if (!applies(it)) outOfScopeCount++;
  const chosen = new Set(items.map((it) => it.id));
  return {
    items,
    pinnedChars,
    pinnedLeftOut,
    pinnedIds,
    outOfScopeCount,
    overBudgetCount: ix.size - outOfScopeCount - items.length,
    overBudget: () => leftForRoom(ix, w, chosen),
    outOfScope: (limit = Infinity) => (outOfScopeCount ? elsewhere(ix, w, limit) : []),
  };
}

interface Choice {
  items: MemoryItem[];
  pinnedChars: number;
  pinnedLeftOut: number[];
  pinnedIds: Set<number>;
}

function choose(ix: MemoryIndex, w: Walk, maxChars: number, now: number): Choice {
  const h = ix.header!;
  const tail = ix.tail;
  const items: MemoryItem[] = [];
  let used = BACKGROUND_HEADER.length;
  let pinnedChars = 0;
  const pinnedLeftOut: number[] = [];
  const pinnedIds = new Set<number>();
  const scratch: Candidate = { time: 0, id: 0, len: 0, applies: true, slot: 0 };
  const bounds = segmentBounds(h.segments);
  // Once nothing more fits, only the pinned segments are still walked: counted and named.
  let full = false;
  for (const g of TRY_ORDER) {
    const pin = isPinSegment(g);
    if (full && !pin) continue;
    const more = w.extras[g]!;
    // Time and id of indexed candidates matter only to merge extras in, and to name the pinned.
    const docs = !pin && more.length ? ix.docs() : null;
    let e = 0;
    const take = (c: Candidate): boolean => {
      if (pin) pinnedIds.add(c.id);
      if (!c.applies) return true;
      if (pin) pinnedChars += c.len + 1;
      if (!lineFits(used, c.len, maxChars)) {
        if (pin) pinnedLeftOut.push(c.id);
        // Nothing more fits: the rest only matters for the pinned, counted and named.
        return pin || !blockFull(used, maxChars);
      }
      used += c.len + 1;
      items.push(c.item ?? ix.itemBySlot(c.slot!));
      return true;
    };
    let go = true;
    for (let at = bounds[g]!; go && at < bounds[g + 1]!; at = Math.min(bounds[g + 1]!, (Math.floor(at / ORDER_BLOCK) + 1) * ORDER_BLOCK)) {
      const block = Math.floor(at / ORDER_BLOCK);
      const next = Math.min(bounds[g + 1]!, (block + 1) * ORDER_BLOCK);
      const count = next - at;
      // No room for the shortest line of the block: none of it fits (the pinned are all counted).
      if (!pin && (blockFull(used, maxChars) || !lineFits(used, ix.sidecar!.u32('omin', block, 1)[0]!, maxChars))) continue;
      const u = ix.sidecar!.u32('order', at * 4, count * 4);
      const pt = pin ? ix.sidecar!.f64('ptimes', at, count) : null;
      for (let i = 0; go && i < count; i++) {
        const slot = u[i * 4]!;
        if (tail?.dead.has(slot) || w.moved.has(slot)) continue;
        // One object for every indexed candidate (take() keeps none): 1M of them cost a GC.
        const c = scratch;
        c.slot = slot;
        c.applies = w.scopeOk(u[i * 4 + 2]!);
        c.time = pt ? pt[i]! : docs ? docs.times[slot]! : 0;
        c.id = pt ? ix.idAt(slot) : docs ? docs.ids[slot]! : 0;
        while (go && e < more.length && newer(more[e]!, c)) go = take(more[e++]!);
        if (!go) break;
        // The index's length has the date, not the age an old item shows now (blocks.ts). The age
        // (the item's time, read from the index) is looked up only for a line that applies here and
        // could fit without it, or is pinned (every pinned line is counted): take() needs no more.
        const base = u[i * 4 + 1]!;
        c.len = c.applies && (pin || lineFits(used, base, maxChars)) ? base + ageChars(ix.timeAt(slot), now) : base;
        go = take(c);
      }
    }
    while (go && e < more.length) go = take(more[e++]!);
    if (!go) full = true;
  }
  if (pinnedChars) pinnedChars += BACKGROUND_HEADER.length;
  return { items, pinnedChars, pinnedLeftOut, pinnedIds };
}

/** Every candidate that applies here and was not chosen, in the order selectBackground tries them. */
function* leftForRoom(ix: MemoryIndex, w: Walk, chosen: Set<number>): Generator<number> {
  const h = ix.header!;
  const dead = ix.tail?.dead;
  const bounds = segmentBounds(h.segments);
  const c: Candidate = { time: 0, id: 0, len: 0, applies: true };
  for (const g of TRY_ORDER) {
    const more = w.extras[g]!;
    let e = 0;
    for (let at = bounds[g]!; at < bounds[g + 1]!; at += ORDER_BLOCK) {
      const count = Math.min(ORDER_BLOCK, bounds[g + 1]! - at);
      const u = ix.sidecar!.u32('order', at * 4, count * 4);
      const pt = isPinSegment(g) && more.length ? ix.sidecar!.f64('ptimes', at, count) : null;
      for (let i = 0; i < count; i++) {
        const slot = u[i * 4]!;
        if (dead?.has(slot) || w.moved.has(slot)) continue;
        c.id = ix.idAt(slot);
        if (more.length) {
          c.time = pt ? pt[i]! : ix.timeAt(slot);
          for (; e < more.length && newer(more[e]!, c); e++) if (more[e]!.applies && !chosen.has(more[e]!.id)) yield more[e]!.id;
        }
        if (w.scopeOk(u[i * 4 + 2]!) && !chosen.has(c.id)) yield c.id;
      }
    }
    for (; e < more.length; e++) if (more[e]!.applies && !chosen.has(more[e]!.id)) yield more[e]!.id;
  }
}

/** The newest `limit` project items of other directories, whatever their group (as a full read lists them). */
function elsewhere(ix: MemoryIndex, w: Walk, limit: number): number[] {
  const dead = ix.tail?.dead;
  const found: Candidate[] = [];
  // By their own time, not their pin time.
  for (const g of w.extras)
    for (const c of g) if (!c.applies && !w.moved.has(ix.slotOf(c.id))) found.push({ ...c, time: isoTime(c.item!.ts) });
  for (let slot = 0; slot < ix.header!.n; slot++) {
    if (dead?.has(slot) || w.scopeOk(ix.lineAt(slot)[1])) continue;
    found.push({ time: ix.timeAt(slot), id: ix.idAt(slot), len: 0, applies: false });
  }
  return found
    .sort((a, b) => (newer(a, b) ? -1 : 1))
    .slice(0, limit)
    .map((c) => c.id);
}

/** Where each stored segment starts in `order`, and its end. */
function segmentBounds(counts: readonly number[]): number[] {
  const out = [0];
  for (const n of counts) out.push(out[out.length - 1]! + n);
  return out;
}

function newer(a: Candidate, b: Candidate): boolean {
  return a.time > b.time || (a.time === b.time && a.id > b.id);
}
