/** The session log's records: one header line `{"meta":{…}}`, then one line per turn and any digest lines. */
import type { ToolCall } from '../broker/types';
import type { SessionDigest } from './digest';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Tool calls are logged exactly as the model sent them, so turns map straight back to messages. */
export type ToolCallRecord = ToolCall;

export interface Turn {
  /** ISO time. */
  ts: string;
  role: Role;
  content: string | null;
  /** e.g. "summarize", "shell" (output of a !cmd), "interrupted". */
  meta?: string;
  tool_calls?: ToolCallRecord[];
  tool_call_id?: string;
  /** User turns: the ids of the memory items sent with it in [recall]. */
  recall?: number[];
  /** User turns whose content carries more than the user typed (`!cmd` output, Norris's wrapper): their words. */
  typed?: string;
}

/** What `append` takes: `ts` defaults to now. */
export type NewTurn = Omit<Turn, 'ts'> & { ts?: string };

export interface SessionMeta {
  id: string;
  started: string;
  version: 1;
  cwd?: string;
  model?: string;
  /** Name of the session this one was resumed from. */
  resumedFrom?: string;
  [k: string]: unknown;
}

/** Header fields the caller supplies; id, started and version are the writer's. */
export type SessionMetaInput = Omit<SessionMeta, 'id' | 'started' | 'version'>;

export interface LoadedSession {
  path: string;
  meta: SessionMeta | null;
  turns: Turn[];
  warnings: Array<{ line: number; reason: string }>;
  /** The latest valid digest line, if any (digest lines are not turns). */
  digest?: SessionDigest;
}

export interface SessionInfo {
  name: string;
  path: string;
  /** Saved with :save (the name is not an automatic id). */
  named: boolean;
  mtimeMs: number;
  /** The user's prompts (what `:sessions`, `aish sessions list` and resume all count). */
  turns: number;
  /** At least one prompt got an answer (a log of failed calls only is not worth listing). */
  answered: boolean;
  /** Written by `aish -p` or `aish --norris` (listed with --all). */
  oneshot?: boolean;
  /** `:rewind` took back every prompt it had: the latest thing done in it was to empty it. */
  rewoundToStart?: boolean;
  /** First user turn, one line, ≤ 80 chars: the user's own words. */
  firstPrompt?: string;
  /** From the latest digest line, when the log has one. */
  title?: string;
  summary?: string;
}
