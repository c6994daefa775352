/**
 * `:save NAME` and `:fork NAME` replace what NAME holds only when it is an earlier state of this
 * same conversation: saving again as you go is the point of a name, but a name reused in another
 * session must not silently throw away the conversation saved under it.
 */
import { existsSync } from 'node:fs';
import { UsageError } from '../util/errors';
import { plural } from '../util/time';
import { loadSession } from './sessions';
import type { LoadedSession, Turn } from './types';

const sameTurn = (a: Turn, b: Turn) => a.ts === b.ts && a.role === b.role && (a.content ?? '') === (b.content ?? '');

/**
 * Whether `saved` is this conversation earlier: a save of this very log, the session this log
 * resumed (by name, or the log it was saved from), a conversation with no turns, or one whose
 * turns all begin this log's.
 */
function continues(saved: LoadedSession, current: LoadedSession, name: string): boolean {
  if (saved.turns.length === 0) return true;
  if (saved.meta?.id !== undefined && saved.meta.id === current.meta?.id) return true;
  // This log resumed NAME, or resumed the log NAME was saved from (its copy has that log's id).
  if (current.meta?.resumedFrom !== undefined && [name, saved.meta?.id].includes(current.meta.resumedFrom)) return true;
  return saved.turns.length <= current.turns.length && saved.turns.every((t, i) => sameTurn(t, current.turns[i]!));
}

/** Throws a one-line UsageError when saving the log at `current` as `name` (at `target`) would lose another conversation. */
export function checkReplace(target: string, current: string, name: string, command: string): void {
  if (!existsSync(target)) return;
  let saved: LoadedSession;
  try {
    saved = loadSession(target);
  } catch {
    throw new UsageError(`"${name}" exists and cannot be read — pick another name, or ${command} --force ${name} to replace it`);
  }
  if (continues(saved, loadSession(current), name)) return;
  const prompts = saved.turns.filter((t) => t.role === 'user').length;
  const when = saved.turns.at(-1)?.ts.slice(0, 10);
  throw new UsageError(
    `"${name}" holds another conversation (${plural(prompts, 'prompt')}${when ? `, last ${when}` : ''}) — pick another name, or ${command} --force ${name} to replace it`,
  );
}
