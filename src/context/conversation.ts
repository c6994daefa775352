/** The live conversation: its messages, and what the model receives next within the token budget. */
import type { ChatMessage } from '../broker/types';
import { slidingWindow, type WindowResult } from './window';

export class Conversation {
  private list: ChatMessage[] = [];
  /**
   * Text sent with a user message but not part of what the user said (the turn's [recall] block):
   * kept beside the message, so the stored conversation and the log hold the user's own words,
   * and sent with it in every later request too, so the request prefix stays the same turn after
   * turn (servers cache it).
   */
  private attachments = new WeakMap<ChatMessage, string>();

  constructor(private readonly maxTokens: number) {}

  get messages(): readonly ChatMessage[] {
    return this.list;
  }

  get budget(): number {
    return this.maxTokens;
  }

  /** `attachment` goes before the message's content in requests (see `attachments`). */
  add(m: ChatMessage, attachment?: string): void {
    this.list.push(m);
    if (attachment) this.attachments.set(m, attachment);
  }

  /** Start over (`:clear`); memory stays. */
  clear(): void {
    this.list = [];
  }

  /** Replace the messages wholesale (`:resume`). */
  load(messages: readonly ChatMessage[]): void {
    this.list = [...messages];
  }

  /**
   * Exactly the messages the next request carries: the system prompt first, then the window.
   * `withAttachments` false: the messages without their [recall] blocks (Norris leaves memory out).
   */
  request(systemPrompt: string, withAttachments = true): WindowResult {
    const sent = this.list.map((m) => {
      const a = withAttachments && this.attachments.get(m);
      return a && m.role === 'user' ? { ...m, content: `${a}\n\n${m.content}` } : m;
    });
    return slidingWindow({ role: 'system', content: systemPrompt }, sent, this.maxTokens);
  }
}
