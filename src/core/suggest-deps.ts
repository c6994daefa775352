/** A suggestion's dependencies (`:do`, `aish do`), taken from the session's parts. */
import type { SessionParts } from './session-parts';
import type { SuggestDeps } from './suggest';

export function suggestDepsOf(p: Pick<SessionParts, 'userShell' | 'models' | 'memory' | 'setup' | 'tally'>): SuggestDeps {
  const shell = p.userShell;
  return {
    host: shell.host,
    get cwd() {
      return shell.cwd;
    },
    changeDir: (d) => shell.changeDir(d),
    cancellable: (fn) => shell.cancellable(fn),
    addShellContext: (b) => shell.addShellContext(b),
    broker: () => p.models.broker(),
    memoryItems: async () => {
      await p.memory.ready();
      return p.memory.injected;
    },
    extraPatterns: p.setup.config.safety.extraDestructivePatterns,
    countUsage: (u) => p.tally.add(p.models.active.name, u, { estimated: false, firstOfTurn: true }),
  };
}
