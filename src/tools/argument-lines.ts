/**
 * The texts in a tool call's arguments that may be command lines, for the user's command rules: a
 * server that runs what it is given (`{command: "rm -rf x"}`, `{program: "rm", args: ["-rf", "x"]}`)
 * must not walk around a deny rule. Each string, and each object's strings and string lists joined
 * in order as shell words. Bounded: past MAX_CHARS nothing is listed and the caller asks.
 */
const MAX_TEXTS = 256;
const MAX_CHARS = 64 * 1024;

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The texts to check, or null when the arguments hold more than can be checked. */
export function argumentLines(args: unknown): string[] | null {
  const out = new Set<string>();
  let chars = 0;
  const add = (text: string): boolean => {
    if (out.has(text)) return true;
    chars += text.length;
    out.add(text);
    return chars <= MAX_CHARS && out.size <= MAX_TEXTS;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return add(v);
    if (typeof v !== 'object' || v === null) return true;
    if (depth > 32) return false;
    const values = Array.isArray(v) ? v : Object.values(v);
    for (const x of values) if (!walk(x, depth + 1)) return false;
    // The words a server would put together: strings and lists of strings, in order.
    const words = values.flatMap((x) => (typeof x === 'string' ? [x] : Array.isArray(x) && x.every((w) => typeof w === 'string') ? x : []));
    return words.length < 2 || add(words.map(quote).join(' '));
  };
  return walk(args, 0) ? [...out] : null;
}
