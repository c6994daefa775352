/** Capture's parts: the summarizer preset's broker, the memory store and its inbox. */
import type { Broker } from '../broker/broker';
import type { Models } from '../broker/models';
import type { AishConfig } from '../config/types';
import { relatedItems } from '../memory/capture-source';
import type { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { findSuperseded } from '../memory/supersede';
import { appendDigest } from '../sessions/digest';
import type { MemorySession } from '../memory/session';
import type { SessionRecorder } from '../sessions/recorder';
import type { CaptureDeps } from './capture';
import type { EngineOptions } from './options';
import { SessionKeeper } from './session-keeper';

/** `memory.summarizerModel`, else the active preset. */
export function summarizerPreset(memory: Pick<MemorySession, 'summarizerModel'>, models: Pick<Models, 'active'>): string {
  return memory.summarizerModel || models.active.name;
}

/** A store this small is simply scanned: exact, and quick enough. */
const SCAN_LIMIT = 5000;

/**
 * `search`: the live session's recall index (ranked by BM25), used once the store is too big to
 * scan on the event loop. Without it (the detached capture) the store is scanned.
 */
export function captureDeps(p: { broker: Broker; store: MemoryStore; inbox: CaptureDeps['inbox']; search?: (text: string, limit: number) => Promise<readonly MemoryItem[]> }): CaptureDeps {
  return {
    broker: p.broker,
    related: async (text, limit) => {
      p.store.reload(); // another aish may have written since
      const items = p.store.items();
      if (p.search && items.length > SCAN_LIMIT) return p.search(text, limit);
      return relatedItems(items, text, limit);
    },
    superseded: findSuperseded,
    inbox: p.inbox,
    saveDigest: appendDigest,
  };
}

/** The engine's keeper: capture is off with --no-memory, memory: false, and for -p / --norris. */
export function keeperFor(
  e: { config: AishConfig; models: Models; memory: MemorySession; recorder: SessionRecorder; summarizer: string },
  opts: Pick<EngineOptions, 'memory' | 'capture'>,
  notice: (text: string) => void,
  changed: () => void,
): SessionKeeper {
  const mem = e.config.memory;
  return new SessionKeeper({
    mode: mem && opts.memory !== false && opts.capture !== false ? mem.capture : 'off',
    minTurns: mem ? mem.captureMinTurns : 4,
    deps: () =>
      captureDeps({
        broker: e.models.broker(e.models.resolve(e.summarizer)),
        store: e.memory.store(),
        inbox: e.memory.inbox(),
        search: async (text, limit) => (await e.memory.search(text, limit)).map((r) => r.item),
      }),
    logPath: () => e.recorder.path,
    notice,
    changed,
  });
}
