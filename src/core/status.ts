/** What the status line shows, as data: the core computes it, front ends only draw it. */
import type { Usage } from '../broker/types';
import { isExact } from '../context/tokens';
import type { WindowResult } from '../context/window';
import { tildify } from '../util/paths';

export interface StatusInfo {
  preset: string;
  model: string;
  /** aish's directory, `~`-shortened. */
  cwd: string;
  /** Items in [background]; null while memory loads; 'off' with --no-memory or memory: false. */
  memoryInjected: number | null | 'off';
  /** Memory candidates waiting for :memory review (0: none, or memory off). */
  inbox: number;
  tokens: number;
  budget: number;
  tokensExact: boolean;
  busy: boolean;
  norris: { step: number; maxSteps: number } | null;
  /** Tokens the server reported for this session's model calls so far (null: none reported yet). */
  usage: Usage | null;
}

/** Tokens reported by the server, added up over the session. */
export class UsageTally {
  private sum: Usage | null = null;

  get total(): Usage | null {
    return this.sum;
  }

  add(u: Usage): void {
    this.sum = { promptTokens: (this.sum?.promptTokens ?? 0) + u.promptTokens, completionTokens: (this.sum?.completionTokens ?? 0) + u.completionTokens };
  }
}

export interface StatusParts {
  preset: { name: string; model: string };
  cwd: string;
  memory: { statusValue(): number | null | 'off'; inboxCount(): number | null };
  request: WindowResult;
  budget: number;
  busy: boolean;
  norris: { step: number; maxSteps: number } | null;
  usage: Usage | null;
}

export function statusOf(p: StatusParts): StatusInfo {
  return {
    preset: p.preset.name,
    model: p.preset.model,
    cwd: tildify(p.cwd),
    memoryInjected: p.memory.statusValue(),
    inbox: p.memory.inboxCount() ?? 0,
    tokens: p.request.tokens,
    budget: p.budget,
    tokensExact: isExact(),
    busy: p.busy,
    // Shown from the first step on.
    norris: p.norris && p.norris.step > 0 ? { step: p.norris.step, maxSteps: p.norris.maxSteps } : null,
    usage: p.usage,
  };
}
