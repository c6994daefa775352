/** A suggestion's dependencies, taken from an engine (kept out of engine.ts, which is near its size limit). */
import type { Engine } from './engine';
import type { SuggestDeps } from './suggest';

export function suggestDepsOf(engine: Engine): SuggestDeps {
  return {
    host: engine.host,
    get cwd() {
      return engine.cwd;
    },
    changeDir: (d) => engine.changeDir(d),
    cancellable: (fn) => engine.cancellable(fn),
    addShellContext: (b) => engine.addShellContext(b),
    broker: () => engine.broker(),
    memoryItems: async () => {
      await engine.memory.ready();
      return engine.memory.injected;
    },
    extraPatterns: engine.config.safety.extraDestructivePatterns,
    countUsage: (u) => engine.countUsage(u, { estimated: false, firstOfTurn: true }),
  };
}
