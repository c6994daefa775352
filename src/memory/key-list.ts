/** Search keys written as a comma list (`(keys: a, b)` on a candidate, Codex's `keywords:`): at most MAX_KEYS, each at most KEY_MAX characters, quotes dropped, no repeats. */
const MAX_KEYS = 8;
const KEY_MAX = 60;

export function keyList(list: string): string[] {
  const keys = list
    .split(',')
    .map((k) => k.trim().replace(/^["'`]+|["'`]+$/g, ''))
    .filter((k) => k.length > 0 && k.length <= KEY_MAX);
  return [...new Set(keys)].slice(0, MAX_KEYS);
}
