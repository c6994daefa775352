/** Every meta command, in `:help` order. */
import { checkpointsCommand, restoreCommand } from './checkpoints';
import { configCommand } from './config';
import { doCommand } from './do';
import { exportCommand } from './export';
import { cdCommand, clearCommand, historyCommand, quitCommand } from './core';
import { helpCommand } from './help';
import { memoryCommand, rememberCommand } from './memory';
import { modelCommand } from './model';
import { norrisCommand } from './norris';
import { rulesCommand } from './rules';
import { forkCommand, rewindCommand } from './rewind';
import { setCommand } from './set';
import { resumeCommand, saveCommand, sessionCommand, sessionsCommand } from './session';
import { toolsCommand } from './tools';
import { trustCommand } from './trust';
import type { CommandCatalog, MetaCommand } from './types';
import { usageCommand } from './usage';

const COMMANDS: readonly MetaCommand[] = [
  helpCommand,
  quitCommand,
  clearCommand,
  historyCommand,
  cdCommand,
  modelCommand,
  configCommand,
  setCommand,
  rememberCommand,
  memoryCommand,
  saveCommand,
  exportCommand,
  sessionCommand,
  sessionsCommand,
  resumeCommand,
  rewindCommand,
  forkCommand,
  toolsCommand,
  rulesCommand,
  trustCommand,
  usageCommand,
  norrisCommand,
  doCommand,
  checkpointsCommand,
  restoreCommand,
];

export const commandCatalog: CommandCatalog = {
  all: () => COMMANDS,
  find: (name) => COMMANDS.find((c) => c.name === name || c.aliases?.includes(name)),
};
