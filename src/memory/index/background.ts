/**
 * [background] from the index: the same choice as selectBackground over a full read (pinned, then
 * pref, then the rest, each newest first, filling the budget with the same rule), walking the
 * index's precomputed order with each candidate's rendered length — so only the chosen items are
 * read from memory.jsonl. The tail's items, and indexed items whose pin it changed, are merged in
 * by time; items it forgets are left out.
 */
import { BACKGROUND_HEADER, backgroundLine } from '../blocks';
import { isoTime } from '../parse';
import { insideScope } from '../project';
import type { MemoryItem } from '../types';
import { realPath } from '../../util/paths';
import { ORDER_BLOCK } from './layout';
import type { MemoryIndex } from './memory-index';

export interface IndexBackground {
  items: MemoryItem[];
  /** Ids that applied here but did not fit (all of them only with `complete`). */
  overBudget: number[];
  /** Ids of project items of other directories (all of them only with `complete`). */
  outOfScope: number[];
  /** Characters the pinned items that apply need (header included). */
  pinnedChars: number;
}

interface Candidate {
  time: number;
  id: number;
  len: number;
  applies: boolean;
  /** An indexed item (read when chosen) … */
  slot?: number;
  /** … or one already at hand (the tail's, or an indexed one whose pin changed). */
  item?: MemoryItem;
}

/** `complete`: list every item left out (the plan), else stop once nothing more can fit. */
export function indexBackground(ix: MemoryIndex, maxChars: number, cwd: string, complete = false): IndexBackground {
  const out: IndexBackground = { items: [], overBudget: [], outOfScope: [], pinnedChars: 0 };
  const elsewhere: Candidate[] = [];
  const h = ix.header;
  if (!h) return out;
  const here = realPath(cwd);
  const scopeApplies = h.scopes.map((s) => insideScope(s, here));
  const applies = (it: Pick<MemoryItem, 'scope'>) => it.scope === undefined || insideScope(it.scope, here);
  const tail = ix.tail;
  // Extras per group: the tail's items and the indexed ones that changed group, newest first.
  const extras: Candidate[][] = [[], [], []];
  const moved = new Set<number>();
  const extra = (it: MemoryItem, pinned: boolean) =>
    extras[pinned ? 0 : it.kind === 'pref' ? 1 : 2]!.push({
      time: isoTime(it.ts),
      id: it.id,
      len: backgroundLine(it).length,
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

  let used = BACKGROUND_HEADER.length;
  let pinnedChars = 0;
  const scratch: Candidate = { time: 0, id: 0, len: 0, applies: true, slot: 0 };
  const bounds = [0, h.pinned, h.pinned + h.pref, h.n];
  for (let g = 0; g < 3; g++) {
    const more = extras[g]!;
    // Time and id of indexed candidates matter only to merge extras in and to list what is left out.
    const docs = more.length || complete ? ix.docs() : null;
    let e = 0;
    const take = (c: Candidate): boolean => {
      if (!c.applies) {
        if (complete) elsewhere.push({ ...c });
        return true;
      }
      if (g === 0) pinnedChars += c.len + 1;
      const room = maxChars - used - 1;
      if (room < 10 || c.len + 1 > room + 1) {
        if (complete) out.overBudget.push(c.id);
        // Nothing more fits: the rest only matters for the plan's list (and the pinned count).
        return complete || g === 0 || room >= 10;
      }
      used += c.len + 1;
      out.items.push(c.item ?? ix.itemBySlot(c.slot!));
      return true;
    };
    let go = true;
    for (let at = bounds[g]!; go && at < bounds[g + 1]!; at = Math.min(bounds[g + 1]!, (Math.floor(at / ORDER_BLOCK) + 1) * ORDER_BLOCK)) {
      const block = Math.floor(at / ORDER_BLOCK);
      const next = Math.min(bounds[g + 1]!, (block + 1) * ORDER_BLOCK);
      const count = next - at;
      // No room for the shortest line of the block: none of it fits (the pinned are all counted, and the plan lists all).
      const room = maxChars - used - 1;
      if (!complete && g > 0 && (room < 10 || ix.sidecar!.u32('omin', block, 1)[0]! > room)) continue;
      const u = ix.sidecar!.u32('order', at * 4, count * 4);
      for (let i = 0; go && i < count; i++) {
        const slot = u[i * 4]!;
        if (tail?.dead.has(slot) || moved.has(slot)) continue;
        // One object for every indexed candidate (take() copies what it keeps): 1M of them cost a GC.
        const c = scratch;
        c.slot = slot;
        c.len = u[i * 4 + 1]!;
        c.applies = u[i * 4 + 2] === 0 || scopeApplies[u[i * 4 + 2]! - 1] === true;
        c.time = docs ? docs.times[slot]! : 0;
        c.id = docs ? docs.ids[slot]! : 0;
        while (go && e < more.length && newer(more[e]!, c)) go = take(more[e++]!);
        if (go) go = take(c);
      }
    }
    while (go && e < more.length) go = take(more[e++]!);
    if (g === 0) out.pinnedChars = pinnedChars ? pinnedChars + BACKGROUND_HEADER.length : 0;
    if (!go) break;
  }
  // A full read lists them newest first, whatever their group.
  out.outOfScope = elsewhere.sort((a, b) => (newer(a, b) ? -1 : 1)).map((c) => c.id);
  return out;
}

function newer(a: Candidate, b: Candidate): boolean {
  return a.time > b.time || (a.time === b.time && a.id > b.id);
}
