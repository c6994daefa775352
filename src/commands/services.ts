/**
 * The services commands run with, made from the session's parts: each is a narrow view (a command
 * that clears the conversation gets `chat`, not the session). Built by the input router.
 */
import { defaultConfigPath } from '../config/paths';
import { describeReload, reloadConfig } from '../core/config-reload';
import type { SessionParts } from '../core/session-parts';
import { memoryOff, memoryService } from '../memory/service';
import type { CommandCatalog, CommandServices } from './types';

const MEMORY_OFF = 'memory is off in the config (memory: false) — remove that line to use :memory';

export function commandServices(p: SessionParts, catalog: CommandCatalog): Readonly<CommandServices> {
  const { setup, chat, models, tally, run } = p;
  const price = (name: string) => setup.config.models[name]?.price;
  return Object.freeze({
    config: setup.config,
    paths: setup.paths,
    ui: p.host,
    memory: setup.config.memory
      ? memoryService(p.memory, { live: true, sync: setup.config.memory.sync, notice: (text) => p.host.print({ kind: 'warn', text }) })
      : memoryOff(MEMORY_OFF, setup.paths.memoryPath),
    models,
    tools: p.toolbox,
    guards: p.guards,
    norris: p.norris,
    chat: {
      newConversation: () => chat.newConversation(),
      requestMessages: () => chat.requestMessages(),
      lastPrompt: () => chat.lastPrompt(),
      digest: () => chat.digest(),
      resume: (nameOrId: string) => chat.resume(nameOrId),
      rewind: (n: number) => chat.rewind(n),
      fork: (name: string, force?: boolean) => chat.fork(name, force),
    },
    configFile: {
      get path() {
        return setup.configPath;
      },
      defaultPath: defaultConfigPath(p.env),
      reload: async () => {
        const r = await reloadConfig(setup, p.env);
        p.notify();
        return describeReload(r, models.names());
      },
    },
    dir: { change: (dir: string) => p.changeDir(dir) },
    usage: { report: () => ({ presets: tally.presets(), price }) },
    run: { cancellable: <T>(fn: (signal: AbortSignal) => Promise<T>) => run.cancellable(fn) },
    sessions: p.recorder,
    checkpoints: p.guards.checkpoints,
    commands: catalog,
    // `:do` loads its prompt and the classifier when first used.
    suggest: {
      command: async (request: string) => {
        const [{ suggestCommand }, { suggestDepsOf }] = await Promise.all([import('../core/suggest'), import('../core/suggest-deps')]);
        await suggestCommand(suggestDepsOf(p), request);
      },
    },
  });
}
