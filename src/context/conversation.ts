/** The live conversation: its messages, and what the model receives next within the token budget. */
import type { ChatMessage } from '../broker/types';
import { messageTokens } from './tokens';
import { slidingWindow, type WindowResult } from './window';

/** How many token budgets of the newest messages are kept (see forgetOld). */
const KEEP_BUDGETS = 2;

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
    this.forgetOld();
  }

  /**
   * A long session would otherwise keep every message, and measure them all for every request,
   * though the window sends only the last budget's worth. Whole exchanges that start more than
   * KEEP_BUDGETS budgets back are dropped: the slack covers what makes a request hold more
   * messages than usual (a request without its [recall] blocks, exact counts after estimates).
   */
  private forgetOld(): void {
    let tokens = 0;
    let i = this.list.length;
    while (i > 0 && tokens <= KEEP_BUDGETS * this.maxTokens) tokens += messageTokens(this.list[--i]!);
    if (tokens <= KEEP_BUDGETS * this.maxTokens) return;
    // Back to the user message that opens the exchange: the newest exchange always stays whole.
    while (i > 0 && this.list[i]!.role !== 'user') i--;
    if (i > 0) this.list = this.list.slice(i);
  }

  /** Start over (`:clear`); memory stays. */
  clear(): void {
    this.list = [];
  }

  /**
   * Take back the last `n` exchanges (`:rewind`): everything from the n-th last user message on.
   * Returns how many were taken back (fewer when the conversation holds fewer).
   */
  rewind(n: number): number {
    let taken = 0;
    let i = this.list.length;
    while (taken < n && i > 0) if (this.list[--i]!.role === 'user') taken++;
    if (taken > 0) this.list = this.list.slice(0, i);
    return taken;
  }

  /** Replace the messages wholesale (`:resume`). */
  load(messages: readonly ChatMessage[]): void {
    this.list = [...messages];
  }

  /**
   * Exactly the messages the next request carries: the system prompt first, then the window.
   * `withAttachments` false: the messages without their [recall] blocks (Norris leaves memory out).
   */
  request(systemPrompt: string, withAttachments = true, opts: { beforeNextPrompt?: boolean } = {}): WindowResult {
    const sent = this.list.map((m) => {
      const a = withAttachments && this.attachments.get(m);
      return a && m.role === 'user' ? { ...m, content: `${a}\n\n${m.content}` } : m;
    });
    const system: ChatMessage = { role: 'system', content: systemPrompt };
    if (!opts.beforeNextPrompt) return slidingWindow(system, sent, this.maxTokens);
    // Between turns the newest exchange is no longer the one always kept: the next prompt is. An
    // answer too long for the budget leaves with it, so the count never shows more than is sent.
    const next: ChatMessage = { role: 'user', content: '' };
    const w = slidingWindow(system, [...sent, next], this.maxTokens);
    return { messages: w.messages.slice(0, -1), tokens: w.tokens - messageTokens(next), evicted: w.evicted };
  }
}
