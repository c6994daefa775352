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
