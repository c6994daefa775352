/** What the status line shows, as data: the core computes it, front ends only draw it. */
import { isExact } from '../context/tokens';
import type { WindowResult } from '../context/window';
import { tildify } from '../util/paths';
import type { UsageStatus } from './usage';

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
  /** Tokens of the last prompt and of the session, and the cost when priced (null: no model call yet). */
  usage: UsageStatus | null;
  /** How the background memory sync ended (`synced ↑3 ↓12`, `sync failed: …`); null: none ran. */
  sync: string | null;
}

/** A status with nothing known yet: what a front end shows before the engine exists. */
export const blankStatus = (): StatusInfo => ({
  preset: '',
  model: '',
  cwd: '',
  memoryInjected: null,
  inbox: 0,
  tokens: 0,
  budget: 0,
  tokensExact: false,
  busy: false,
  norris: null,
  usage: null,
  sync: null,
});

export interface StatusParts extends Pick<StatusInfo, 'cwd' | 'budget' | 'busy' | 'norris' | 'usage' | 'sync'> {
  preset: { name: string; model: string };
  memory: { statusValue(): number | null | 'off'; inboxCount(): number | null };
  request: WindowResult;
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
    sync: p.sync,
  };
}
