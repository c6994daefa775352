/**
 * The one safety gate every tool call goes through: run or ask. Pure: each tool describes its own
 * call (the subject); the session supplies the policy (mode, --yes, what was answered "always").
 *
 * - Chat mode asks for every run_command (`[y/N/always]`; "always" is keyed by the exact command
 *   and never offered for destructive ones), unless safety.confirmCommands is false — then only
 *   destructive ones ask. MCP tools marked readOnlyHint run; others ask.
 * - Norris runs non-destructive steps unasked; destructive ones ask, or run with --yes.
 * - Whoever asks treats "nobody to answer" as a refusal, and only an explicit yes as yes.
 */

export type GateMode = 'chat' | 'norris';

/** What a tool says about one call. */
export interface GateSubject {
  kind: 'command' | 'mcp';
  /** The command's classification (run_command) or the tool's own hints (MCP). */
  destructive: boolean;
  readOnly?: boolean;
  /** Why it counts as destructive, for the user and the model. */
  reasons?: string[];
  /** What an "always" answer is remembered by (the exact command line); absent: never offered. */
  alwaysKey?: string;
}

export interface GatePolicy {
  mode: GateMode;
  confirmCommands: boolean;
  /** --yes: destructive Norris steps run without asking. */
  yes: boolean;
  /** The subject's alwaysKey was answered "always" earlier in this session. */
  alwaysAllowed: boolean;
}

export type GateDecision = { action: 'run' } | { action: 'ask'; offerAlways: boolean };

export function decide(s: GateSubject, p: GatePolicy): GateDecision {
  if (s.kind === 'mcp') {
    if (s.readOnly) return { action: 'run' };
    if (p.mode === 'norris' && (!s.destructive || p.yes)) return { action: 'run' };
    return { action: 'ask', offerAlways: false };
  }
  if (s.destructive) {
    if (p.mode === 'norris' && p.yes) return { action: 'run' };
    return { action: 'ask', offerAlways: false };
  }
  if (p.mode === 'norris' || p.alwaysAllowed || !p.confirmCommands) return { action: 'run' };
  return { action: 'ask', offerAlways: s.alwaysKey !== undefined };
}

export type Answer = 'yes' | 'always' | 'no';

/** Only an explicit yes runs; Enter, anything else, or nobody there (null) means no. */
export function parseAnswer(raw: string | null, offerAlways: boolean): Answer {
  if (raw === null) return 'no';
  const a = raw.trim().toLowerCase();
  if (a === 'y' || a === 'yes') return 'yes';
  if (offerAlways && (a === 'a' || a === 'always')) return 'always';
  return 'no';
}
