import type { MemoryState } from './state';

/** Tombstones whose target is no item at all (hand-written ones, usually): they forget nothing. */
export function danglingTombstones(state: MemoryState): Array<{ line: number; id: number; target: number }> {
  const out: Array<{ line: number; id: number; target: number }> = [];
  for (const t of state.forgottenTargets())
    if (!state.hadItem(t.target)) out.push({ line: state.linesOf(t.id)?.[0] ?? 0, id: t.id, target: t.target });
  return out;
}
