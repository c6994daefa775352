/**
 * The one safety gate every tool call goes through: run (in the sandbox or not), ask, or refuse.
 * Pure: each tool describes its own call (the subject); the session supplies the policy.
 *
 * Every command that runs unasked runs in the sandbox when there is one — read-only ones too, in a
 * view where nothing is writable. Without a sandbox, only what is proven read-only (the allowlist)
 * runs unasked; the rest asks. What the user approved ("always" for that exact command) runs as
 * asked. Destructive commands always ask (in the sandbox too), unless Norris was started with
 * --yes; "always" is never offered for them. A command that would start outside aish's directory
 * asks too. Whoever asks treats "nobody to answer" as a refusal, and only an explicit yes as yes.
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
  /** It would start in a directory outside aish's own (the model's `cwd`). */
  outside?: boolean;
  readOnly?: boolean;
  /** Why it counts as destructive, for the user and the model. */
  reasons?: string[];
  /** It reads credentials or the environment: what it prints goes to the model. */
  secrets?: boolean;
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
  /** approved: a person said yes to this command before ("always"); else it runs unasked. */
  | { action: 'run'; sandboxed: boolean; approved?: boolean }
  | { action: 'ask'; offerAlways: boolean; sandboxed: boolean }
  | { action: 'refuse'; reason: string };

const REQUIRED = 'safety.sandbox is "required" and no sandbox is available on this machine';
const NO_SECRETS = 'it reads credentials or the environment, and without a sandbox to hide them --yes does not run that';

export function decide(s: GateSubject, p: GatePolicy): GateDecision {
  // Writing the user's memory is theirs to approve, every time: no "always", no --yes.
  if (s.kind === 'memory')
    return s.readOnly ? { action: 'run', sandboxed: false } : { action: 'ask', offerAlways: false, sandboxed: false };
  // The user's rules come first: deny holds in every mode (--yes too), ask always asks. An MCP
  // call meets a rule through command text in its arguments (mcp-tool.ts).
  if (s.rule?.decision === 'deny') return { action: 'refuse', reason: `denied by the rule "${s.rule.rule}"` };
  if (s.kind === 'mcp') {
    if (s.rule?.decision === 'ask') return { action: 'ask', offerAlways: false, sandboxed: false };
    if (s.readOnly) return { action: 'run', sandboxed: false };
    if (p.mode === 'norris' && (!s.destructive || p.yes)) return { action: 'run', sandboxed: false };
    return { action: 'ask', offerAlways: false, sandboxed: false };
  }
  // A command's ask rule asks even with --yes; allow runs as an unasked step does (in the sandbox when there is one).
  if (s.rule?.decision === 'ask') return { action: 'ask', offerAlways: false, sandboxed: p.mode === 'norris' && p.sandbox };
  // An allowed step runs unasked, with what unasked steps get (no credential stores, no network).
  // Without a sandbox, an allow rule never carries a destructive or credential-reading command.
  if (s.rule?.decision === 'allow') {
    if (p.sandbox) return { action: 'run', sandboxed: true };
    if (p.sandboxRequired) return { action: 'ask', offerAlways: false, sandboxed: false };
    if (!s.destructive) return { action: 'run', sandboxed: false };
  }
  const offerAlways = s.alwaysKey !== undefined && !s.destructive;
  // Running on its own (no human said yes to this command): in the sandbox, or not at all.
  const onItsOwn = (): GateDecision => {
    if (p.sandbox) return { action: 'run', sandboxed: true };
    if (p.sandboxRequired) return { action: 'refuse', reason: REQUIRED };
    return p.yes ? { action: 'run', sandboxed: false } : { action: 'ask', offerAlways, sandboxed: false };
  };
  if (s.destructive || s.outside) {
    // --yes approves what changes things, not sending secrets to the model: only the sandbox,
    // which hides the credential stores from such a step, lets one run.
    if (p.mode === 'norris' && p.yes && s.secrets && !p.sandbox) return { action: 'refuse', reason: NO_SECRETS };
    if (p.mode === 'norris' && p.yes) return onItsOwn();
    return { action: 'ask', offerAlways: false, sandboxed: p.mode === 'norris' && p.sandbox };
  }
  if (p.alwaysAllowed) return { action: 'run', sandboxed: false, approved: true };
  if (s.safe) {
    if (p.mode === 'chat' && p.confirmCommands) return { action: 'ask', offerAlways, sandboxed: false };
    return { action: 'run', sandboxed: p.sandbox };
  }
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
