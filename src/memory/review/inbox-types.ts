/**
 * inbox.jsonl (beside memory.jsonl): memory candidates waiting for the user's review. Capture
 * appends candidates; `:memory review` appends decisions. Append-only and locked like memory.jsonl;
 * a candidate is pending while no decision names it.
 */
import type { MemoryKind } from '../types';

/** Where a candidate came from. */
interface CandidateSource {
  /** The session log's name (its id). */
  session: string;
  /** The source turn's time, when the summarizer named one. */
  turnTs?: string;
  /** The source turn's words, quoted (one line, ≤ 200 characters, secrets redacted). */
  quote?: string;
}

export interface InboxCandidate {
  /** Inbox-local id (1, 2, …), never reused. */
  id: number;
  ts: string;
  kind: MemoryKind;
  /** Secrets already redacted. */
  content: string;
  /** Search words the summarizer proposed (redacted); a kept candidate's item carries them. */
  keys?: string[];
  /** An active memory item this one updates or contradicts: keeping it forgets that item. */
  supersedes?: number;
  /** An active memory item that already says this (shown; default is to drop). */
  duplicate?: number;
  /** Kinds of secret redacted from the content. */
  redacted?: string[];
  source: CandidateSource;
  /** Proposed by another agent over `aish mcp`: the client's name from its handshake (shown as `agent: NAME`). */
  agent?: string;
  /** The project scope the item gets when kept (an agent proposed it for its project). */
  scope?: string;
  /** A forget request: keeping it forgets this active item (`content` is the reason). */
  forget?: number;
}

/** `y` keep (with the memory item written), `n` drop. Skipping writes nothing. */
export interface InboxDecision {
  ts: string;
  review: number;
  action: 'keep' | 'drop';
  /** The memory item written when kept. */
  item?: number;
}

/**
 * A conflict (two or more active items replacing one item, conflicts.ts) the user chose to keep
 * whole in review: not asked again while every item in it is among `keep` (uids).
 */
export interface ConflictDecision {
  ts: string;
  /** The uid of the replaced item. */
  conflict: string;
  action: 'both';
  keep: string[];
}

/** What capture hands the inbox: ids and times are assigned under the lock. */
export type NewCandidate = Omit<InboxCandidate, 'id' | 'ts'>;
