/**
 * What code outside memory/ reads and writes items through — `aish mcp`'s tools, the model's
 * memory_remember, capture — instead of the store: the active items now, an add as `:remember` does
 * it, a forget, pins. MemorySession.writes() hands it out; nothing outside memory/ calls `.store()`
 * (test/architecture/narrow-handles.test.ts).
 */
import type { AddOptions, ForgetResult } from '../log/records';
import type { OpResult } from '../ops';
import type { MemoryStore } from '../store';
import type { MemoryItem, MemoryKind } from '../types';

export interface MemoryWrites {
  /** The active items as memory.jsonl holds them now (read again: another aish may have written since). */
  items(): readonly MemoryItem[];
  isPinned(item: MemoryItem): boolean;
  /** An add as `:remember` does it: secrets redacted, an item that says the same not written again. */
  remember(kind: MemoryKind, text: string, opts?: AddOptions): Promise<OpResult & { item: MemoryItem }>;
  /** One item forgotten (a tombstone, under the lock). */
  forget(id: number): Promise<ForgetResult>;
}

export function memoryWrites(store: MemoryStore): MemoryWrites {
  return {
    items: () => store.reload().items,
    isPinned: (it) => store.isPinned(it),
    // The secret rules load with the first add, not with the session.
    remember: async (kind, text, opts) => (await import('../ops')).addItem(store, kind, text, opts),
    forget: (id) => store.forget(id),
  };
}
