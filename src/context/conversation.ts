/** The live conversation: messages, memory items, Norris state, and what the model will receive. */
import type { ChatMessage } from '../broker/types';
import type { MemoryItem } from '../memory/types';
import { composeSystemPrompt, type NorrisPromptState } from './system-prompt';
import { slidingWindow, type WindowResult } from './window';

export class Conversation {
  private list: ChatMessage[] = [];
  memoryItems: MemoryItem[] = [];
  norris: NorrisPromptState | null = null;

  constructor(private maxTokens: number) {}

  get messages(): readonly ChatMessage[] {
    return this.list;
  }

  get budget(): number {
    return this.maxTokens;
  }

  add(m: ChatMessage): void {
    this.list.push(m);
  }

  /** Start over (`:clear`); memory stays. */
  clear(): void {
    this.list = [];
  }

  /** Replace the messages wholesale (`:resume`). */
  load(messages: ChatMessage[]): void {
    this.list = [...messages];
  }

  systemPrompt(): string {
    return composeSystemPrompt({ memoryItems: this.memoryItems, norris: this.norris });
  }

  /** Exactly the messages the next request carries: system prompt first, then the window. */
  request(): WindowResult {
    return slidingWindow({ role: 'system', content: this.systemPrompt() }, this.list, this.maxTokens);
  }
}
