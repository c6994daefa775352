/**
 * Conflicts: two machines that edit (or supersede) the same item each write a new item naming the
 * old one's uid in `replaces`, and a tombstone of the old one. Once both reach one store, two or
 * more ACTIVE items replace the same uid: which says it right is the user's call, so they are
 * shown side by side in `:memory review`, never resolved by guessing (docs/memory-conflicts.md).
 */
import { uidOf } from '../log/identity';
import type { MemoryStore } from '../store';
import type { MemoryItem } from '../types';

export interface Conflict {
  /** The uid of the replaced item. */
  replaced: string;
  /** The replaced (forgotten) item, when the file still has it (compaction drops forgotten items). */
  old?: MemoryItem;
  /** The active items replacing it, oldest clock first. */
  rivals: MemoryItem[];
}

/** Conflicts the user kept whole in an earlier review (the inbox remembers them). */
export interface KeptAll {
  keptAll(replaced: string, rivals: readonly string[]): boolean;
}

/** Computed once per listing of active items: the store hands out the same array until the file changes. */
const memo = new WeakMap<readonly MemoryItem[], Conflict[]>();

/**
 * Every conflict in the store, in the order of their oldest rival; with `kept`, those the user
 * chose to keep whole are left out. One pass over the active items when there are none.
 */
export function findConflicts(store: MemoryStore, kept?: KeptAll): Conflict[] {
  const active = store.items();
  let all = memo.get(active);
  if (!all) {
    all = scan(store, active);
    memo.set(active, all);
  }
  return kept && all.length > 0 ? all.filter((c) => !kept.keptAll(c.replaced, c.rivals.map(uidOf))) : all;
}

/** How many conflicts wait for review. */
export function conflictCount(store: MemoryStore, kept?: KeptAll): number {
  return findConflicts(store, kept).length;
}

/** Ids of the items in the given conflicts, for marking them in a listing. */
export function conflictedIds(conflicts: readonly Conflict[]): Set<number> {
  const ids = new Set<number>();
  for (const c of conflicts) for (const it of c.rivals) ids.add(it.id);
  return ids;
}

/** A KeptAll opened only when asked (a listing without conflicts never opens the inbox). */
export function lazyKept(open: () => KeptAll): KeptAll {
  let k: KeptAll | undefined;
  return { keptAll: (replaced, rivals) => (k ??= open()).keptAll(replaced, rivals) };
}

/** Where a rival came from, as the record says: the writer's label (`via`, set by sync) and its source. */
export function provenance(it: MemoryItem): string {
  const rec = it as MemoryItem & { via?: unknown; writer?: unknown };
  const via = typeof rec.via === 'string' && rec.via ? rec.via : typeof rec.writer === 'string' && rec.writer ? rec.writer : '';
  return [via && `via ${via}`, it.source && `from ${it.source}`].filter(Boolean).join(', ');
}

/**
 * The conflict as it stands now (a rival that arrived meanwhile included): null when it was acted
 * on elsewhere — one of its rivals forgotten, or all of them kept.
 */
export function stillOpen(store: MemoryStore, c: Conflict, kept: KeptAll): Conflict | null {
  const now = findConflicts(store).find((x) => x.replaced === c.replaced);
  if (!now) return null;
  const ids = conflictedIds([now]);
  if (!c.rivals.every((it) => ids.has(it.id))) return null;
  return kept.keptAll(now.replaced, now.rivals.map(uidOf)) ? null : now;
}

function scan(store: MemoryStore, active: readonly MemoryItem[]): Conflict[] {
  let groups: Map<string, MemoryItem[]> | null = null;
  for (const it of active) {
    const r = it.replaces;
    if (r === undefined) continue;
    groups ??= new Map();
    const g = groups.get(r);
    if (g) g.push(it);
    else groups.set(r, [it]);
  }
  if (!groups) return [];
  const out: Conflict[] = [];
  for (const [replaced, rivals] of groups) if (rivals.length > 1) out.push({ replaced, rivals: rivals.sort(byClock) });
  if (out.length === 0) return out;
  const wanted = new Map(out.map((c) => [c.replaced, c]));
  // Forgotten items too: the replaced one was forgotten by the edits that replaced it.
  for (const it of store.committed().state.itemsInFileOrder()) {
    const c = wanted.get(uidOf(it));
    if (c && !c.old) c.old = it;
  }
  return out.sort((a, b) => byClock(a.rivals[0]!, b.rivals[0]!));
}

/** Oldest first by hybrid clock (fixed-width stamps: string order is time order), then time, then id. */
function byClock(a: MemoryItem, b: MemoryItem): number {
  const ha = a.hlc ?? '';
  const hb = b.hlc ?? '';
  if (ha !== hb) return ha < hb ? -1 : 1;
  return a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.id - b.id;
}
