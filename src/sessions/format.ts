/** One line per session or search hit, shared by `:sessions` and `aish sessions`. */
import { formatAge } from '../util/time';
import type { SessionHit } from './search';
import type { SessionInfo } from './types';

/**
 * `mark` is one character: '*' this session, '+' saved with :save, ' ' otherwise. The digest's
 * title says what a session was about better than its first prompt, so it wins when there is one.
 */
export function formatSessionLine(s: SessionInfo, now: Date, mark: string): string {
  const turns = `${String(s.turns).padStart(3)} ${s.turns === 1 ? 'turn ' : 'turns'}`;
  return `${mark} ${s.name.padEnd(24)} ${formatAge(new Date(s.mtimeMs).toISOString(), now).padStart(4)}  ${turns}  ${s.title ?? s.firstPrompt ?? ''}`;
}

/** `NAME  AGE  ROLE  snippet`; a turn whose time cannot be read shows `?` for its age. */
export function formatHitLine(h: SessionHit, now: Date): string {
  const age = Number.isNaN(Date.parse(h.ts)) ? '?' : formatAge(h.ts, now);
  return `${h.session.padEnd(24)} ${age.padStart(4)}  ${h.role.padEnd(9)}  ${h.snippet}`;
}

/** What a search that found nothing says. */
export function noMatches(query: string): string {
  return `no turn matches ${JSON.stringify(query.trim().replace(/\s+/g, ' ').slice(0, 80))}`;
}

/** Rows left out by default (one-shot runs, logs whose calls all failed), and how to show them. */
export function hiddenNote(n: number, showAll: string): string {
  return `${n} one-shot or unanswered hidden — ${showAll} shows them`;
}
