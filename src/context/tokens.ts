/**
 * Token counts for the sliding window and the status line. A character estimate costs nothing;
 * the real tokenizer (gpt-tokenizer, o200k, ~160 ms to import) is loaded only when a conversation
 * gets near its budget, where being exact matters.
 */
import type { ChatMessage } from '../broker/types';

/** Per-message framing the chat format adds (role, separators). */
const MESSAGE_OVERHEAD = 4;

/** Distinct words whose merges the tokenizer keeps (messages are counted once and cached). */
const MERGE_CACHE_WORDS = 5000;

type Counter = (text: string) => number;

let exact: Counter | null = null;
let loading: Promise<void> | null = null;

function estimateTokens(text: string): number {
  // ~4 characters per token for English prose and code; errs a little high for safety.
  return Math.ceil(text.length / 3.6);
}

export function countTokens(text: string): number {
  return exact ? exact(text) : estimateTokens(text);
}

export function isExact(): boolean {
  return exact !== null;
}

/** Load the real tokenizer (once). Safe to call often. */
export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base')
    .then((m) => {
      // gpt-tokenizer caches the merges of up to 100,000 distinct words by default (several MB
      // that a long session fills and keeps); counting a message once needs far fewer.
      m.setMergeCacheSize(MERGE_CACHE_WORDS);
      exact = (t: string) => m.countTokens(t);
    })
    .catch(() => {
      // Without it the estimate stands; the window still works.
    });
  return loading;
}

export function messageText(m: ChatMessage): string {
  let t = m.content ?? '';
  if (m.role === 'assistant' && m.tool_calls) for (const c of m.tool_calls) t += c.function.name + c.function.arguments;
  return t;
}

/** Cached per message object: messages are immutable once added. */
const cache = new WeakMap<ChatMessage, { exact: boolean; n: number }>();

export function messageTokens(m: ChatMessage): number {
  const hit = cache.get(m);
  if (hit && (hit.exact || !exact)) return hit.n;
  const n = countTokens(messageText(m)) + MESSAGE_OVERHEAD;
  cache.set(m, { exact: exact !== null, n });
  return n;
}
