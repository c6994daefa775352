/**
 * One capture: read a session log, ask the summarizer once, and write what it proposed where the
 * user decides on it. Memory candidates (secrets redacted, duplicates and superseded items marked,
 * the source turn quoted) go to the inbox, never into memory.jsonl; the title, summary and working
 * state go to the session log as a digest line. Runs in the background of a live aish (at :clear,
 * on eviction, every few turns) or in a detached `aish __capture` after quit.
 */
import type { Broker } from '../broker/broker';
import { captureMessages, parseCapture, RELATED_ITEMS, type CaptureCandidate } from '../memory/review/capture-prompt';
import { sourceTurn } from '../memory/review/capture-source';
import type { InboxCandidate, NewCandidate } from '../memory/review/inbox-types';
import { redactSecrets } from '../util/secrets/redact';
import { findDuplicate } from '../memory/review/duplicates';
import type { MemoryItem, MemoryKind } from '../memory/types';
import type { SessionDigest, WorkingState } from '../sessions/digest';
import { loadSession, sessionName } from '../sessions/sessions';
import type { Turn } from '../sessions/types';
import { AishError } from '../util/errors';

export interface CaptureDeps {
  /** The summarizer preset's broker. */
  broker: Pick<Broker, 'stream'>;
  /**
   * Up to `limit` active items most related to `text` (read fresh): what the summarizer is shown,
   * and what a candidate is checked against for duplicates and supersedes. A live aish asks its
   * recall index, so a 100k-item store never stalls the prompt.
   */
  related(text: string, limit: number): Promise<readonly MemoryItem[]>;
  /** An active item `c` updates or contradicts, judged by wording (the model may also say so). */
  superseded(c: { kind: MemoryKind; content: string }, active: readonly MemoryItem[]): MemoryItem | undefined;
  inbox: { add(list: NewCandidate[]): Promise<InboxCandidate[]> };
  saveDigest(sessionPath: string, d: SessionDigest): void;
  now?: () => Date;
}

/** Active items a candidate is compared with (duplicates, supersedes). */
const CANDIDATE_POOL = 20;

export interface CaptureResult {
  digest: SessionDigest;
  /** Candidates the inbox took (those it already held are left out). */
  added: InboxCandidate[];
  /** User turns the capture covered. */
  userTurns: number;
}

function userTurnCount(turns: readonly Turn[]): number {
  let n = 0;
  for (const t of turns) if (t.role === 'user' && !t.meta) n++;
  return n;
}

/** Null when the model call was cancelled. Throws on a failed call or an unreadable log. */
export async function captureSession(sessionPath: string, deps: CaptureDeps, signal?: AbortSignal): Promise<CaptureResult | null> {
  const loaded = loadSession(sessionPath);
  const turns = loaded.turns;
  const userTurns = userTurnCount(turns);
  if (userTurns === 0) throw new AishError('nothing to capture — the session has no prompt');
  const userText = turns
    .filter((t) => t.role === 'user' && !t.meta)
    .map((t) => t.content ?? '')
    .join('\n');
  const related = await deps.related(userText, RELATED_ITEMS);
  const previous = loaded.digest?.state;
  const answer = await deps.broker.stream(captureMessages({ turns, previous, related }), signal ? { signal } : {});
  if (answer.interrupted || signal?.aborted) return null;
  const parsed = parseCapture(answer.content);

  const session = sessionName(sessionPath);
  const candidates: NewCandidate[] = [];
  for (const c of parsed.candidates) {
    const near = await deps.related(c.content, CANDIDATE_POOL);
    // An item the model names may not be among the near ones: look it up among those it was shown.
    const named = c.supersedes !== undefined ? related.find((it) => it.id === c.supersedes) : undefined;
    candidates.push(toInbox(c, named && !near.includes(named) ? [...near, named] : near, turns, session, deps));
  }
  const added = candidates.length ? await deps.inbox.add(candidates) : [];

  const now = (deps.now ?? (() => new Date()))();
  const digest: SessionDigest = { ts: now.toISOString(), userTurns };
  const title = parsed.title && redactSecrets(parsed.title).text;
  const summary = parsed.summary && redactSecrets(parsed.summary).text;
  if (title) digest.title = title;
  if (summary) digest.summary = summary;
  const state = parsed.state ?? previous;
  if (state) digest.state = redactState(state);
  deps.saveDigest(sessionPath, digest);
  return { digest, added, userTurns };
}

function toInbox(
  c: CaptureCandidate,
  active: readonly MemoryItem[],
  turns: readonly Turn[],
  session: string,
  deps: CaptureDeps,
): NewCandidate {
  const red = redactSecrets(c.content);
  const content = red.text;
  const out: NewCandidate = { kind: c.kind, content, source: { session, ...sourceTurn(c.content, turns) } };
  if (c.keys?.length) out.keys = c.keys.map((k) => redactSecrets(k).text);
  if (red.found.length) out.redacted = [...new Set(red.found)];
  const dup = findDuplicate({ kind: c.kind, content }, active);
  if (dup) out.duplicate = dup.id;
  else {
    // The model's word, when it names an active item; else the wording's.
    const named = c.supersedes !== undefined ? active.find((it) => it.id === c.supersedes) : undefined;
    const old = named ?? deps.superseded({ kind: c.kind, content }, active);
    if (old) out.supersedes = old.id;
  }
  return out;
}

function redactState(s: WorkingState): WorkingState {
  const r = (x: string) => redactSecrets(x).text;
  return {
    goal: r(s.goal),
    current: r(s.current),
    decisions: s.decisions.map(r),
    openQuestions: s.openQuestions.map(r),
    nextSteps: s.nextSteps.map(r),
    filesTouched: s.filesTouched.map(r),
  };
}
