/** Short ages for lists: `42s`, `5m`, `3h`, `12d`, `2y`. */
export function formatAge(ts: string, now: Date): string {
  const s = Math.max(0, Math.floor((now.getTime() - Date.parse(ts)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 365 * 86_400) return `${Math.floor(s / 86_400)}d`;
  return `${Math.floor(s / (365 * 86_400))}y`;
}

/** `1 item`, `2 items`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** An item older than this shows its age where it is planned (memory that may have gone stale). */
const STALE_DAYS = 90;

/** `5 months old`, `1 year old` for a time over STALE_DAYS before `now`; '' for a newer or unreadable one. */
export function staleAge(ts: string, now: Date): string {
  return staleAgeOf(Date.parse(ts), now.getTime());
}

/** staleAge of a time in ms at `now` in ms. */
export function staleAgeOf(time: number, now: number): string {
  const days = Math.floor((now - time) / 86_400_000);
  if (!(days >= STALE_DAYS)) return '';
  if (days < 365) return `${Math.floor(days / 30)} months old`;
  const years = Math.floor(days / 365);
  return `${years} year${years === 1 ? '' : 's'} old`;
}
