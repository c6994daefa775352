/**
 * The composition root: every part of a session — model presets, memory, tools, the session log,
 * guards, the conversation, Norris, the keeper, the usage tally — is built here, once, and wired to
 * the others through narrow callbacks. Nothing else constructs them. What each consumer gets is a
 * frozen view with only what it uses: a turn its `TurnDeps`, Norris its `NorrisDeps`, `!cmd` its
 * `UserShellDeps`.
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Models } from '../broker/models';
import { lazyCheckpoints } from '../checkpoints/lazy';
import type { Setup } from '../config/setup';
import { Conversation } from '../context/conversation';
import { composeSystemPrompt } from '../context/system-prompt';
import type { WindowResult } from '../context/window';
import { MemorySession } from '../memory/session';
import { SessionRecorder } from '../sessions/recorder';
import { aishSecrets } from '../tools/secret-paths';
import { Toolbox } from '../tools/toolbox';
import { changeDirectory } from '../util/paths';
import { keeperParts } from './capture-deps';
import { chatControl, type ChatControl } from './chat-control';
import { Guards } from './guards';
import type { EngineHost } from './host';
import { Norris } from './norris';
import type { EngineOptions } from './options';
import { ShellContext, type PromptDeps } from './prompt';
import { RunSlot } from './run-slot';
import { terminalSafeHost } from './safe-host';
import { SessionKeeper } from './session-keeper';
import { statusOf, type StatusInfo } from './status';
import type { TurnDeps } from './turn';
import { UsageTally } from './usage';
import type { UserShellDeps } from './user-shell';

export interface SessionParts {
  readonly setup: Setup;
  /** The front end's host behind a filter: nothing shown can drive the terminal. */
  readonly host: EngineHost;
  readonly env: NodeJS.ProcessEnv;
  /** `-p` / `--norris`: one question or goal, then exit. */
  readonly oneshot: boolean;
  readonly conversation: Conversation;
  readonly models: Models;
  readonly memory: MemorySession;
  readonly toolbox: Toolbox;
  readonly recorder: SessionRecorder;
  readonly guards: Guards;
  readonly norris: Norris;
  /** The session's digest and working state, eviction, and when capture runs. */
  readonly keeper: SessionKeeper;
  readonly tally: UsageTally;
  /** What Ctrl-C cancels; busy; failed model calls. */
  readonly run: RunSlot;
  readonly chat: ChatControl;
  /** What one turn uses (chat and Norris steps). */
  readonly turn: Readonly<TurnDeps>;
  /** What a typed prompt uses. */
  readonly prompt: Readonly<PromptDeps>;
  /** What `!cmd` (and `:do`'s run) uses. */
  readonly userShell: Readonly<UserShellDeps>;
  /**
   * The exact request the model gets next: system prompt (with [background] or NORRIS), then the
   * window; `beforeNextPrompt`: between turns, what it carries besides the prompt not typed yet.
   */
  request(beforeNextPrompt?: boolean): WindowResult;
  status(): StatusInfo;
  /** Something the status line shows changed: hand the host the new status. */
  notify(): void;
  /** Put how the background memory sync ended on the status line. */
  noteSync(text: string): void;
  /** `:cd` / `!cd`: change aish's directory (the process's: child commands inherit it). */
  changeDir(dir: string): string;
}

/** aish's directory is the process's (child commands inherit it). */
const cwd = (): string => process.cwd();

export function composeSession(setup: Setup, frontHost: EngineHost, opts: EngineOptions = {}): SessionParts {
  const host = terminalSafeHost(frontHost);
  const { config, paths } = setup;
  const notify = (): void => host.status?.(status());
  const warn = (text: string): void => host.print({ kind: 'warn', text });

  const conversation = new Conversation(config.context.maxTokens);
  const models = new Models(config, opts.model ?? config.defaultModel, opts.env, notify);
  const memory = new MemorySession(
    config,
    paths.memoryPath,
    {
      inject: opts.memory,
      cwd,
      preset: opts.model ?? config.defaultModel,
      // -p, -e and --norris read no :commands (-e asks on a terminal, but only its menu): point at the shell's command instead.
      ...((frontHost.canAsk === false || opts.oneshot === true) && { inspectHint: 'aish memory list' }),
    },
    { notice: (kind, text) => host.print({ kind, text }), changed: notify },
  );
  const baseDir = setup.configPath ? dirname(setup.configPath) : process.cwd();
  // aish's own files are credential stores too (the config may hold keys; memory and sessions, notes).
  const aishFiles = aishSecrets(setup.configPath, paths.dataDir, paths.memoryPath);
  const toolbox = new Toolbox(
    config,
    { logDir: join(paths.dataDir, 'logs'), baseDir, dataDir: paths.dataDir, aishFiles },
    { warn, changed: notify },
    memory,
  );
  const recorder = new SessionRecorder(
    paths.sessionsDir,
    () => ({ cwd: cwd(), model: models.active.model, ...(opts.oneshot && { oneshot: true }) }),
    warn,
  );
  // The checkpoints of aish's directory follow :cd; no git runs until one is needed.
  const guards = new Guards(config.safety, lazyCheckpoints(paths.dataDir, cwd), warn, { home: homedir(), exclude: aishFiles });
  const keeper = new SessionKeeper(keeperParts({ config, models, memory, recorder }, opts, warn, notify));
  const tally = new UsageTally();
  const run = new RunSlot(notify);
  const shell = new ShellContext();

  // Norris and the request refer to each other (the NORRIS block replaces [background]): the
  // request reads Norris's state through this binding, set once below.
  let norris: Norris | null = null;
  const request = (beforeNextPrompt = false): WindowResult => {
    const n = norris?.state ?? null;
    const system = composeSystemPrompt({
      memoryItems: memory.injected,
      session: keeper.sessionText(),
      norris: n && { goal: n.goal, maxSteps: n.maxSteps },
    });
    return conversation.request(system, !n, { beforeNextPrompt });
  };
  const status = (): StatusInfo =>
    statusOf({
      preset: models.active,
      cwd: cwd(),
      memory,
      request: request(!run.busy),
      budget: conversation.budget,
      busy: run.busy,
      norris: norris?.state ?? null,
      usage: tally.status((name) => config.models[name]?.price),
      sync: syncNote,
    });
  let syncNote: string | null = null;
  const noteSync = (text: string): void => {
    syncNote = text;
    notify();
  };
  const changeDir = (dir: string): string => {
    changeDirectory(dir);
    memory.dirChanged();
    notify();
    return cwd();
  };

  const turnDeps: TurnDeps = {
    host,
    conversation,
    toolbox,
    get cwd() {
      return cwd();
    },
    config,
    guards,
    request,
    broker: () => models.broker(),
    stepLabel: () => {
      const n = norris?.state;
      return n && n.step > 0 ? `step ${n.step}/${n.maxSteps}` : undefined;
    },
    record: (t) => recorder.append(t),
    countUsage: (u, o) => tally.add(models.active.name, u, o),
    callFailed: () => run.callFailed(),
    cancellable: (fn) => run.cancellable(fn),
  };
  const turn = Object.freeze(turnDeps);
  const userShell: UserShellDeps = {
    host,
    get cwd() {
      return cwd();
    },
    changeDir,
    cancellable: (fn) => run.cancellable(fn),
    addShellContext: (block) => {
      shell.add(block);
      notify();
    },
  };
  norris = new Norris(
    Object.freeze({
      turn,
      maxSteps: () => config.norris.maxSteps,
      busy: () => run.busy,
      memoryReady: () => memory.ready(),
      notify,
      keeper,
    }),
  );
  const parts: SessionParts = {
    setup,
    host,
    env: opts.env ?? process.env,
    oneshot: opts.oneshot === true,
    conversation,
    models,
    memory,
    toolbox,
    recorder,
    guards,
    norris,
    keeper,
    tally,
    run,
    chat: chatControl({ host, conversation, recorder, keeper, shell, request, notify }),
    turn,
    prompt: Object.freeze({
      turn,
      maxFileBytes: config.context.maxFileBytes,
      memory,
      shell,
      norrisRunning: () => norris?.state != null,
      keeper,
      oneshot: opts.oneshot === true,
    }),
    userShell: Object.freeze(userShell),
    request,
    status,
    noteSync,
    notify,
    changeDir,
  };
  return Object.freeze(parts);
}
