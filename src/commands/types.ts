/** One typed entry per meta command; families live in one file each and are listed in registry.ts. */
import type { Engine } from '../engine/engine';
import type { OutputItem } from '../engine/host';

export interface CommandContext {
  engine: Engine;
  /** Everything after the command name, trimmed. */
  rest: string;
  /** `rest` split on white space. */
  argv: string[];
}

export interface CommandResult {
  output?: OutputItem[];
  quit?: boolean;
}

export interface MetaCommand {
  name: string;
  aliases?: string[];
  /** Argument synopsis for :help, e.g. "[NAME]". */
  args?: string;
  summary: string;
  /** Longer help for `:help NAME` (subcommands, examples). */
  help?: string;
  /** Completions for the word being typed; `argv` holds the words before it. */
  complete?(engine: Engine, argv: string[], word: string): string[];
  run(ctx: CommandContext): Promise<CommandResult | void> | CommandResult | void;
}

export const info = (text: string): OutputItem => ({ kind: 'info', text });
export const warn = (text: string): OutputItem => ({ kind: 'warn', text });
