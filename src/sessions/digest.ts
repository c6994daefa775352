/**
 * A session's digest: a one-line title, a short summary and the working state (where the work
 * stands), written by capture (see core/capture) as a `{"meta":{"digest":{…}}}` line appended to the
 * session log. The latest digest line wins. Digest lines are never conversation: replay and
 * summarize skip them, so no model ever reads a previous capture's answer as a turn.
 */

/** Where the work stands, in fixed fields (rendered as Markdown for `:session` and the [session] block). */
export interface WorkingState {
  goal: string;
  /** What is done and what is in progress. */
  current: string;
  decisions: string[];
  openQuestions: string[];
  nextSteps: string[];
  filesTouched: string[];
}

export interface SessionDigest {
  /** ISO time the digest was made. */
  ts: string;
  /** One line, ≤ 80 characters. */
  title?: string;
  /** A few sentences. */
  summary?: string;
  state?: WorkingState;
  /** User turns in the log when the digest was made (so a later capture knows what is new). */
  userTurns?: number;
}
