/** Capture's parts: the summarizer preset's broker, the memory's items and its inbox. */
import type { Broker } from '../broker/broker';
import type { Models } from '../broker/models';
import type { AishConfig } from '../config/types';
import { relatedItems } from '../memory/review/capture-source';
import type { MemoryItem } from '../memory/types';
import { findSuperseded } from '../memory/review/supersede';
import { appendDigest } from '../sessions/digest';
import type { MemorySession } from '../memory/session';
import type { SessionRecorder } from '../sessions/recorder';
import type { CaptureDeps } from './capture';
import type { EngineOptions } from './options';
import type { KeeperParts } from './session-keeper';

/** `memory.summarizerModel`, else the active preset. */
export function summarizerPreset(memory: Pick<MemorySession, 'summarizerModel'>, models: Pick<Models, 'active'>): string {
  return memory.summarizerModel || models.active.name;
}

/**
 * `nearby`: the live session's choice of items (MemorySession.nearby: a scan of a small store, the
 * recall index's best for a big one). Without it (the detached capture) the store is scanned.
 */
export function captureDeps(p: {
  broker: Broker;
  /** The active items now (read again: another aish may have written since). */
  items: () => readonly MemoryItem[];
  inbox: CaptureDeps['inbox'];
  nearby?: MemorySession['nearby'];
}): CaptureDeps {
  return {
    broker: p.broker,
    related: async (text, limit) => {
      const near = p.nearby ? await p.nearby(text, limit) : { items: p.items(), scanned: true };
      return near.scanned ? relatedItems(near.items, text, limit) : near.items;
    },
    superseded: findSuperseded,
    inbox: p.inbox,
    saveDigest: appendDigest,
  };
}

/** What the session's keeper runs capture with: capture is off with --no-memory, memory: false, and for -p / --norris. */
export function keeperParts(
  e: {
    config: Pick<AishConfig, 'memory'>;
    models: Pick<Models, 'broker' | 'resolve' | 'active'>;
    memory: Pick<MemorySession, 'summarizerModel' | 'writes' | 'inbox' | 'nearby'>;
    recorder: Pick<SessionRecorder, 'path'>;
  },
  opts: Pick<EngineOptions, 'memory' | 'capture'>,
  notice: (text: string) => void,
  changed: () => void,
): KeeperParts {
  const mem = e.config.memory;
  return {
    mode: mem && opts.memory !== false && opts.capture !== false ? mem.capture : 'off',
    minTurns: mem ? mem.captureMinTurns : 4,
    deps: () =>
      captureDeps({
        broker: e.models.broker(e.models.resolve(summarizerPreset(e.memory, e.models))),
        items: () => e.memory.writes().items(),
        inbox: e.memory.inbox(),
        nearby: (text, limit) => e.memory.nearby(text, limit),
      }),
    logPath: () => e.recorder.path,
    notice,
    changed,
  };
}
