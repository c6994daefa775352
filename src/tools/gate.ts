/**
 * The one safety gate every tool call goes through: run (in the sandbox or not), ask, or refuse.
 * Pure: each tool describes its own call (the subject); the session supplies the policy.
 *
 * What runs unasked outside a sandbox is only what is proven read-only (the allowlist), or what
 * the user approved ("always" for that exact command). Everything else that would run unasked —
 * Norris steps, and commands auto-approved with safety.confirmCommands: false — runs in the
 * sandbox, or asks when there is none. Destructive commands always ask (in the sandbox too),
 * unless Norris was started with --yes; "always" is never offered for them. Whoever asks treats
 * "nobody to answer" as a refusal, and only an explicit yes as yes.
 */

export type GateMode = 'chat' | 'norris';

/** What a tool says about one call. */
export interface GateSubject {
  /** memory: aish's own memory tools (search reads; remember writes the user's memory). */
  kind: 'command' | 'mcp' | 'memory';
  /** The command's classification (run_command) or the tool's own hints (MCP). */
  destructive: boolean;
  /** Proven read-only: every part of the command is on the allowlist. */
  safe?: boolean;
  readOnly?: boolean;
  /** Why it counts as destructive, for the user and the model. */
  reasons?: string[];
  /** What an "always" answer is remembered by (the exact command line); absent: never offered. */
  alwaysKey?: string;
  /** A command rule the user wrote decided (safety.rules, a trusted .aish/rules): it comes first. */
  rule?: { decision: 'allow' | 'ask' | 'deny'; rule: string };
}

export interface GatePolicy {
  mode: GateMode;
  confirmCommands: boolean;
  /** --yes: destructive Norris steps run without asking. */
  yes: boolean;
  /** The subject's alwaysKey was answered "always" earlier in this session. */
  alwaysAllowed: boolean;
  /** A sandbox is available for commands. */
  sandbox: boolean;
  /** safety.sandbox is "required": nothing runs on its own outside a sandbox. */
  sandboxRequired: boolean;
}

export type GateDecision =
  | { action: 'run'; sandboxed: boolean }
  | { action: 'ask'; offerAlways: boolean; sandboxed: boolean }
  | { action: 'refuse'; reason: string };

const REQUIRED = 'safety.sandbox is "required" and no sandbox is available on this machine';

export function decide(s: GateSubject, p: GatePolicy): GateDecision {
  // Writing the user's memory is theirs to approve, every time: no "always", no --yes.
  if (s.kind === 'memory')
    return s.readOnly ? { action: 'run', sandboxed: false } : { action: 'ask', offerAlways: false, sandboxed: false };
  if (s.kind === 'mcp') {
    if (s.readOnly) return { action: 'run', sandboxed: false };
    if (p.mode === 'norris' && (!s.destructive || p.yes)) return { action: 'run', sandboxed: false };
    return { action: 'ask', offerAlways: false, sandboxed: false };
  }
  // The user's rules come first: deny holds in every mode (--yes too), ask always asks, and allow
  // runs as an unasked step does (in the sandbox when there is one).
  if (s.rule?.decision === 'deny') return { action: 'refuse', reason: `denied by the rule "${s.rule.rule}"` };
  if (s.rule?.decision === 'ask') return { action: 'ask', offerAlways: false, sandboxed: p.mode === 'norris' && p.sandbox };
  if (s.rule?.decision === 'allow')
    return p.sandbox || !p.sandboxRequired
      ? { action: 'run', sandboxed: p.sandbox }
      : { action: 'ask', offerAlways: false, sandboxed: false };
  const offerAlways = s.alwaysKey !== undefined && !s.destructive;
  // Running on its own (no human said yes to this command): in the sandbox, or not at all.
  const onItsOwn = (): GateDecision => {
    if (p.sandbox) return { action: 'run', sandboxed: true };
    if (p.sandboxRequired) return { action: 'refuse', reason: REQUIRED };
    return p.yes ? { action: 'run', sandboxed: false } : { action: 'ask', offerAlways, sandboxed: false };
  };
  if (s.destructive) {
    if (p.mode === 'norris' && p.yes) return onItsOwn();
    return { action: 'ask', offerAlways: false, sandboxed: p.mode === 'norris' && p.sandbox };
  }
  if (s.safe) {
    if (p.mode === 'chat' && p.confirmCommands && !p.alwaysAllowed) return { action: 'ask', offerAlways, sandboxed: false };
    return { action: 'run', sandboxed: false };
  }
  if (p.alwaysAllowed) return { action: 'run', sandboxed: false };
  if (p.mode === 'chat' && p.confirmCommands) return { action: 'ask', offerAlways, sandboxed: false };
  return onItsOwn();
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
