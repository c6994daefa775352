/**
 * Tokens and cost of this aish run, per preset: what the server reported in its usage chunk, or
 * the token counter's estimate for servers that send none (marked, so `~` can be shown). The tally
 * lives as long as the session (core/session-parts.ts builds one): `:clear` starts a new
 * conversation, not a new bill.
 */
import type { Usage } from '../broker/types';
import type { ModelPreset } from '../config/types';

/** USD per million tokens (config: `models.NAME.price`). */
export type Price = NonNullable<ModelPreset['price']>;

export interface PresetUsage extends Usage {
  preset: string;
  /** Model calls made with this preset. */
  requests: number;
  /** Calls whose tokens are estimates (the server sent no usage). */
  estimated: number;
}

export interface TokenCount extends Usage {
  /** At least one of the calls counted is an estimate. */
  estimated: boolean;
}

/** What the status line shows. */
export interface UsageStatus {
  /** The last prompt's model calls (all its tool rounds), or a Norris run's. */
  last: TokenCount;
  session: TokenCount;
  /** USD over the priced presets; null when no preset used is priced. */
  cost: number | null;
}

export function costOf(u: Usage, price: Price): number {
  return (u.promptTokens * price.input + u.completionTokens * price.output) / 1_000_000;
}

const addCount = (a: TokenCount, u: Usage, estimated: boolean): TokenCount => ({
  promptTokens: a.promptTokens + u.promptTokens,
  completionTokens: a.completionTokens + u.completionTokens,
  estimated: a.estimated || estimated,
});

const ZERO: TokenCount = { promptTokens: 0, completionTokens: 0, estimated: false };

export class UsageTally {
  private readonly byPreset = new Map<string, PresetUsage>();
  private last: TokenCount | null = null;

  /**
   * One model call. `firstOfTurn`: the first call of a prompt (or Norris run) — the status line's
   * "last" count starts again from it.
   */
  add(preset: string, u: Usage, opts: { estimated: boolean; firstOfTurn: boolean }): void {
    const p = this.byPreset.get(preset) ?? { preset, requests: 0, promptTokens: 0, completionTokens: 0, estimated: 0 };
    p.requests++;
    p.promptTokens += u.promptTokens;
    p.completionTokens += u.completionTokens;
    if (opts.estimated) p.estimated++;
    this.byPreset.set(preset, p);
    this.last = addCount(opts.firstOfTurn || !this.last ? ZERO : this.last, u, opts.estimated);
  }

  /** Per preset, in the order first used. */
  presets(): PresetUsage[] {
    return [...this.byPreset.values()].map((p) => ({ ...p }));
  }

  status(priceOf: (preset: string) => Price | undefined): UsageStatus | null {
    if (!this.last) return null;
    let session = ZERO;
    let cost: number | null = null;
    for (const p of this.byPreset.values()) {
      session = addCount(session, p, p.estimated > 0);
      const price = priceOf(p.preset);
      if (price) cost = (cost ?? 0) + costOf(p, price);
    }
    return { last: this.last, session, cost };
  }
}

/** 950, 1.2k, 12k, 1.3M. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** Small sums keep two significant digits ($0.0021), cents show from $0.01 up. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** `↑1.2k ↓340 · Σ 5.1k · $0.013`; `~` before a count that holds an estimate. */
export function usageText(u: UsageStatus): string {
  const t = (c: TokenCount) => (c.estimated ? '~' : '');
  const parts = [
    `${t(u.last)}↑${formatTokens(u.last.promptTokens)} ↓${formatTokens(u.last.completionTokens)}`,
    `Σ ${t(u.session)}${formatTokens(u.session.promptTokens + u.session.completionTokens)}`,
  ];
  if (u.cost !== null) parts.push(`${u.session.estimated ? '~' : ''}${formatCost(u.cost)}`);
  return parts.join(' · ');
}
