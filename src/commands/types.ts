/**
 * Meta commands are thin adapters: each declares which services it needs (`needs: ['memory', 'ui']`)
 * and receives only those, built for it at run time, parses its arguments, calls the part of the core that does the
 * work, and returns what to show. A command with subcommands (`:memory`) declares them as a table;
 * dispatch, `:help` and Tab completion are derived from it.
 */
import type { Models } from '../broker/models';
import type { Checkpoints } from '../checkpoints/checkpoints';
import type { AishConfig } from '../config/types';
import type { AishPaths } from '../config/paths';
import type { ChatControl } from '../core/chat-control';
import type { Guards } from '../core/guards';
import type { EngineHost, OutputItem } from '../core/host';
import type { Norris } from '../core/norris';
import type { PresetUsage, Price } from '../core/usage';
import type { MemoryService } from '../memory/service';
import type { SessionRecorder } from '../sessions/recorder';
import type { Toolbox } from '../tools/toolbox';

/** Everything a command may ask for. */
export interface CommandServices {
  config: AishConfig;
  paths: AishPaths;
  /** Questions, paging, and the live area for commands that wait on a model. */
  ui: Pick<EngineHost, 'ask' | 'pageLines' | 'print' | 'liveStart' | 'liveEnd' | 'interactive' | 'draft'>;
  /** The memory verbs (not the session, not the store); with memory off, one object that refuses each. */
  memory: MemoryService;
  models: Models;
  tools: Pick<Toolbox, 'statuses' | 'serverTools' | 'tools' | 'rules'>;
  /** The sandbox and checkpoints behind the gate. */
  guards: Pick<Guards, 'describe'>;
  norris: Pick<Norris, 'run' | 'state'>;
  /** The conversation as a whole. */
  chat: ChatControl;
  /** The config file in use (`path` null: none, the defaults). */
  configFile: {
    readonly path: string | null;
    /** The file aish reads when no --config or $AISH_CONFIG names one (under $XDG_CONFIG_HOME). */
    readonly defaultPath: string;
    /** Read it again; says what was applied and what needs a restart. */
    reload(): Promise<string>;
  };
  /** aish's directory (`:cd`). */
  dir: { change(dir: string): string };
  /** Tokens and cost of this run's model calls, per preset (`:usage`). */
  usage: { report(): { presets: PresetUsage[]; price(preset: string): Price | undefined } };
  /** Work Ctrl-C can cancel (a command waiting on a model). */
  run: { cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> };
  sessions: Pick<SessionRecorder, 'path' | 'id' | 'save' | 'append' | 'sessionsDir'>;
  /** Snapshots of aish's directory (`:checkpoints`, `:restore`). */
  checkpoints: Pick<Checkpoints, 'dir' | 'list' | 'restore' | 'changedSince' | 'before'>;
  /** The command table itself (`:help`). */
  commands: CommandCatalog;
  /** `:do`: one shell command for a request in words, reviewed before it runs (core/suggest.ts). */
  suggest: { command(request: string): Promise<void> };
}

export type Need = keyof CommandServices;

interface CommandInput {
  /** Everything after the command (or subcommand) name, trimmed, its own spacing kept. */
  rest: string;
  /** `rest` split on white space. */
  argv: string[];
}

export interface CommandResult {
  output?: OutputItem[];
  quit?: boolean;
}

type Run<N extends Need> = (ctx: CommandInput & Pick<CommandServices, N>) => Promise<CommandResult | void> | CommandResult | void;
type Complete<N extends Need> = (ctx: Pick<CommandServices, N>, argv: string[], word: string) => string[];

export interface SubCommand<N extends Need = Need> {
  name: string;
  /** Argument synopsis, e.g. "ID TEXT". */
  args?: string;
  /** One line for `:help COMMAND` (continuation lines allowed, indented by the help formatter). */
  help: string;
  complete?: Complete<N>;
  run: Run<N>;
}

export interface MetaCommand<N extends Need = Need> {
  name: string;
  /** The services it runs with: the router hands it these and no others. */
  needs: readonly N[];
  aliases?: string[];
  /** Argument synopsis for :help, e.g. "[NAME]"; derived from the subcommands when there are some. */
  args?: string;
  summary: string;
  /** Longer help for `:help NAME`; derived from the subcommands when there are some. */
  help?: string;
  /** Completions for the word being typed; `argv` holds the words before it. */
  complete?: Complete<N>;
  /** The subcommand table; the first word picks one (`defaultSub` when there is none). */
  subcommands?: SubCommand<N>[];
  defaultSub?: string;
  run?: Run<N>;
}

/**
 * A command whose services are exactly its `needs`: the type of every `run` and `complete` (its
 * subcommands' too) is derived from that list, so using a service it does not list fails to compile.
 */
export function command<const N extends Need>(spec: MetaCommand<N>): MetaCommand<N> {
  return spec;
}

/** Only the services in `needs`, picked at run time. */
export function pickServices<N extends Need>(all: Readonly<CommandServices>, needs: readonly N[]): Pick<CommandServices, N> {
  const out = {} as Pick<CommandServices, N>;
  for (const n of needs) out[n] = all[n];
  return out;
}

export interface CommandCatalog {
  all(): readonly MetaCommand[];
  find(name: string): MetaCommand | undefined;
}

export const info = (text: string): OutputItem => ({ kind: 'info', text });
export const warn = (text: string): OutputItem => ({ kind: 'warn', text });
/** Rows of a list (`:help`, `:memory list`…): wrapped with a hanging indent at narrow widths. */
export const rows = (text: string): OutputItem => ({ kind: 'info', text, hang: 4 });

/** The text after the first `n` words of `rest`, its own spacing kept. */
export function afterWords(rest: string, n: number): string {
  let r = rest;
  for (let i = 0; i < n; i++) r = r.replace(/^\S+\s*/, '');
  return r;
}
