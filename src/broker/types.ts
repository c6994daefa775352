/** Messages in the OpenAI chat-completions shape: what the model receives, and what sessions log. */

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface ToolSpec {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface StreamResult {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage?: Usage;
  /** Stopped by the user (Ctrl-C); `content` holds what arrived before. */
  interrupted: boolean;
}

export interface StreamOptions {
  tools?: ToolSpec[];
  signal?: AbortSignal;
  /** Called for each piece of answer text, in order. */
  onText?: (text: string) => void;
  /** A failed call will be tried again after a wait (so a front end can say so while it waits). */
  onRetry?: (retry: RetryNotice) => void;
}

export interface RetryNotice {
  /** The attempt about to be made (2 = the first retry) and how many there can be. */
  attempt: number;
  of: number;
  waitMs: number;
}
