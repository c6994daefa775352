/** The session log's records (SPEC §5): one header line `{"meta":{…}}`, then one line per turn. */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Same shape as the broker's ToolCall (OpenAI chat completions), so turns map straight to messages. */
export interface ToolCallRecord {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface Turn {
  /** ISO time. */
  ts: string;
  role: Role;
  content: string | null;
  /** e.g. "summarize", "shell" (output of a !cmd), "interrupted". */
  meta?: string;
  tool_calls?: ToolCallRecord[];
  tool_call_id?: string;
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
}

export interface SessionInfo {
  name: string;
  path: string;
  /** Saved with :save (the name is not an automatic id). */
  named: boolean;
  mtimeMs: number;
  turns: number;
  /** First user turn, one line, ≤ 80 chars. */
  firstPrompt?: string;
}
