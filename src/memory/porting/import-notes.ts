/**
 * What an imported memory.jsonl's forget and pin records did, line by line. They apply within the
 * file only — the receiving memory numbers its items afresh, so an id in another file never names
 * one of yours: an item the file forgets is not imported (named, with the line that forgot it), a
 * pinned one arrives pinned, and a record naming an id the file has no item for is skipped (named).
 */
import type { MemoryState } from '../log/state';

export function recordNotes(state: MemoryState): string[] {
  const notes: Array<[number, string]> = [];
  const lineOf = (id: number) => state.linesOf(id)?.[0] ?? 0;
  const forgotBy = new Map<number, number>();
  for (const t of state.forgottenTargets()) {
    if (!state.hadItem(t.target)) {
      notes.push([lineOf(t.id), `forget of id ${t.target}, which no item in this file has — skipped (ids differ between memories)`]);
    } else if (!forgotBy.has(t.target)) forgotBy.set(t.target, lineOf(t.id));
  }
  for (const [target, by] of forgotBy) notes.push([lineOf(target), `item ${target} not imported: line ${by} of this file forgets it`]);
  for (const p of state.pinsByTarget().values()) {
    if (!state.hadItem(p.target))
      notes.push([lineOf(p.id), `${p.kind} of id ${p.target}, which no item in this file has — skipped (ids differ between memories)`]);
  }
  return notes.sort((a, b) => a[0] - b[0]).map(([line, text]) => `${line}: ${text}`);
}
