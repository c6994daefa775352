/** Capture's parts: the summarizer preset's broker, the memory store and its inbox. */
import type { Broker } from '../broker/broker';
import type { Models } from '../broker/models';
import type { AishConfig } from '../config/types';
import type { MemoryStore } from '../memory/store';
import { findSuperseded } from '../memory/supersede';
import { appendDigest } from '../sessions/digest';
import type { CaptureDeps } from './capture';

/** `memory.summarizerModel`, else the active preset. */
export function summarizerPreset(config: AishConfig, models: Pick<Models, 'active'>): string {
  return (config.memory && config.memory.summarizerModel) || models.active.name;
}

export function captureDeps(p: { broker: Broker; store: MemoryStore; inbox: CaptureDeps['inbox'] }): CaptureDeps {
  return {
    broker: p.broker,
    activeItems: () => {
      p.store.reload(); // another aish may have written since
      return p.store.items();
    },
    superseded: findSuperseded,
    inbox: p.inbox,
    saveDigest: appendDigest,
  };
}
