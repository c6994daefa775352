/** What every step of a review (held, conflicts, inbox, team, stale) talks through, and how their tallies join in one closing line. */

/** The REPL's ui, or readline on the command line: so the REPL and `aish memory review` run the same walks. */
export interface ReviewIO {
  /** The user's line ('' for a bare Enter), or null when nobody can answer any more. */
  ask(question: string, opts?: { initial?: string }): Promise<string | null>;
  print(line: string): void;
}

/**
 * An answer to a walk's question as the word of `words` it names, whole or by its first letter
 * (`y` or `yes`: `yes`); '' for any other answer (a skip), null when nobody can answer any more.
 */
export function choiceOf<W extends string>(answer: string | null, words: readonly W[]): W | '' | null {
  if (answer === null) return null;
  const a = answer.trim().toLowerCase();
  return words.find((w) => a === w || a === w[0]) ?? '';
}

/** The review's closing line with a step's own part in front (`conflicts resolved 1, …; kept 0, …`). */
export function withPart<R extends { wrote: boolean; summary: string }>(part: string, wrote: boolean, r: R): R {
  const rest = r.summary.replace(/^\[aish\] review: /, '');
  return { ...r, wrote: r.wrote || wrote, summary: `[aish] review: ${part}; ${rest}` };
}
