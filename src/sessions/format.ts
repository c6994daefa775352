/** One line per session, shared by `:sessions` and `aish sessions list`. */
import { formatAge } from '../util/time';
import type { SessionInfo } from './types';

/** `mark` is one character: '*' this session, '+' saved with :save, ' ' otherwise. */
export function formatSessionLine(s: SessionInfo, now: Date, mark: string): string {
  return `${mark} ${s.name.padEnd(24)} ${formatAge(new Date(s.mtimeMs).toISOString(), now).padStart(4)}  ${String(s.turns).padStart(3)} turns  ${s.firstPrompt ?? ''}`;
}
