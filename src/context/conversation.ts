/** The live conversation: its messages, and what the model receives next within the token budget. */
import type { ChatMessage } from '../broker/types';
import { slidingWindow, type WindowResult } from './window';

export class Conversation {
  private list: ChatMessage[] = [];

  constructor(private readonly maxTokens: number) {}

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
  load(messages: readonly ChatMessage[]): void {
    this.list = [...messages];
  }

  /** Exactly the messages the next request carries: the system prompt first, then the window. */
  request(systemPrompt: string): WindowResult {
    return slidingWindow({ role: 'system', content: systemPrompt }, this.list, this.maxTokens);
  }
}
