/**
 * The one safety gate every tool call goes through (SPEC §6, NOTES.md "lessons"): run, ask or
 * refuse. Pure: the caller supplies the command's classification and whether anyone can answer.
 *
 * - Chat mode asks for every run_command (`[y/N/always]`; "always" is keyed by the exact command
 *   and never offered for destructive ones), unless safety.confirmCommands is false — then only
 *   destructive ones ask. MCP tools marked readOnlyHint run; others ask.
 * - Norris runs non-destructive steps unasked; destructive ones ask, or run with --yes.
 * - Nobody to ask (no terminal): whatever would ask is refused. A bare Enter never runs anything.
 */

export type GateMode = 'chat' | 'norris';

export interface GateRequest {
  mode: GateMode;
  kind: 'command' | 'mcp';
  /** Command classification (run_command) or the tool's own hints (MCP). */
  destructive: boolean;
  readOnly?: boolean;
  confirmCommands: boolean;
  /** --yes: destructive Norris steps run without asking. */
  yes: boolean;
  /** The exact command was answered "always" earlier in this session. */
  alwaysAllowed: boolean;
}

export type GateDecision =
  | { action: 'run' }
  | { action: 'ask'; offerAlways: boolean }
  | { action: 'refuse'; reason: string };

export function decide(r: GateRequest): GateDecision {
  if (r.kind === 'mcp') {
    if (r.readOnly) return { action: 'run' };
    if (r.mode === 'norris' && (!r.destructive || r.yes)) return { action: 'run' };
    return { action: 'ask', offerAlways: false };
  }
  if (r.destructive) {
    if (r.mode === 'norris' && r.yes) return { action: 'run' };
    return { action: 'ask', offerAlways: false };
  }
  if (r.mode === 'norris' || r.alwaysAllowed || !r.confirmCommands) return { action: 'run' };
  return { action: 'ask', offerAlways: true };
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
