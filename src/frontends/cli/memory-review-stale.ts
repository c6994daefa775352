/** `aish memory review --stale [--json]`: the stale items (memory/review/stale.ts) listed, one a line; walked with `:memory review --stale`. */
import { NOTHING_STALE, staleItems, staleLine } from '../../commands/memory-review-stale';
import type { MemoryStore } from '../../memory/store';
import { out, outJson } from './output';

export function listStale(store: MemoryStore, json: boolean): void {
  const now = new Date();
  const list = staleItems(store, now);
  if (json) {
    const rows = list.map((s) => ({
      id: s.item.id,
      kind: s.item.kind,
      content: s.item.content,
      ts: s.item.ts,
      ...(s.item.confirmed !== undefined && { confirmed: s.item.confirmed }),
      ...(s.item.scope !== undefined && { scope: s.item.scope }),
      age: s.age,
      unused: s.unused,
      last_recalled: s.recalled === undefined ? null : new Date(s.recalled).toISOString(),
      ...(s.by && { by: { id: s.by.item.id, how: s.by.how, kind: s.by.item.kind, content: s.by.item.content } }),
    }));
    outJson(rows);
    return;
  }
  if (list.length === 0) return out(NOTHING_STALE);
  for (const s of list) out(staleLine(s, now));
  out(`${list.length} stale — keep, edit or forget them with :memory review --stale in aish`);
}
