/**
 * The recall index of a running aish: built once in the background after start-up (in chunks
 * that yield, so typing stays live), then kept in step with memory.jsonl — each turn reads only
 * what was appended since (by this or another aish) and indexes the difference; a rewritten file
 * (a hand edit, a compaction) is indexed again. The index is never the source of truth: it is
 * rebuilt from the store, and a failure only costs recall, never a turn.
 */
import { RecallIndex, type RecallDoc } from './recall-index';
import { isoTime } from './parse';
import type { MemoryStore } from './store';
import type { MemoryItem } from './types';

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** More changes than this at once (a rewritten file): rebuild in chunks rather than in one go. */
const REBUILD_OVER = 2000;

export function recallDoc(item: MemoryItem): RecallDoc {
  return { id: item.id, text: item.tags?.length ? `${item.content} ${item.tags.join(' ')}` : item.content, time: isoTime(item.ts) };
}

export class RecallService {
  private building: Promise<RecallIndex> | null = null;
  /** id -> the item object indexed for it (a hand edit in place makes a new object under the same id). */
  private indexed = new Map<number, MemoryItem>();
  private seen: readonly MemoryItem[] | null = null;

  constructor(private readonly store: () => MemoryStore) {}

  /** Start building the index, once; resolves with it. */
  prepare(): Promise<RecallIndex> {
    this.building ??= this.build();
    // A failed build is tried again next time.
    this.building.catch(() => (this.building = null));
    return this.building;
  }

  /** The index in step with the file, or null when it is not ready within `waitMs`. Throws when it cannot be built. */
  async current(waitMs: number): Promise<RecallIndex | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
    try {
      const idx = await Promise.race([this.prepare(), late]);
      if (!idx) return null;
      return await this.sync(idx);
    } finally {
      clearTimeout(timer);
    }
  }

  private async build(): Promise<RecallIndex> {
    await pause(); // after whatever start-up drew
    const items = this.store().items();
    const idx = await RecallIndex.build(items.map(recallDoc), { chunk: 2000, pause });
    await pause();
    // The store's id map is built on its first lookup (~50 ms at 100k items): here, not in a turn.
    this.store().get(0);
    this.indexed = new Map(items.map((it) => [it.id, it]));
    this.seen = items;
    return idx;
  }

  private async sync(idx: RecallIndex): Promise<RecallIndex> {
    const store = this.store();
    store.reload();
    const active = store.items();
    if (active === this.seen) return idx;
    // Usually a few lines were appended: one lookup per item, and the id set only when something went.
    const added: MemoryItem[] = [];
    let kept = 0;
    for (const it of active) {
      if (this.indexed.get(it.id) === it) kept++;
      else added.push(it);
    }
    const goneCount = this.indexed.size - kept;
    if (added.length + goneCount > REBUILD_OVER) {
      this.building = this.build();
      return this.building;
    }
    if (goneCount > 0) {
      const live = new Set<number>();
      for (const it of active) live.add(it.id);
      for (const id of [...this.indexed.keys()]) {
        if (!live.has(id)) {
          idx.remove(id);
          this.indexed.delete(id);
        }
      }
    }
    for (const it of added) {
      idx.add(recallDoc(it));
      this.indexed.set(it.id, it);
    }
    this.seen = active;
    return idx;
  }
}
