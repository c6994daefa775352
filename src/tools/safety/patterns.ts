/** `safety.extraDestructivePatterns`: the user's own regular expressions, compiled once per list. */

const compiled = new WeakMap<Array<string | RegExp>, RegExp[]>();

/** Strings are regular-expression sources (matched literally when invalid); RegExps are used as is. */
export function compilePatterns(patterns: Array<string | RegExp> | undefined): RegExp[] {
  if (!patterns || patterns.length === 0) return [];
  let res = compiled.get(patterns);
  if (!res) {
    res = patterns.map((p) => {
      if (typeof p !== 'string') return p;
      try {
        return new RegExp(p);
      } catch {
        return new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')); // not a valid regex: match it literally
      }
    });
    compiled.set(patterns, res);
  }
  return res;
}

export function matchesAny(patterns: RegExp[], text: string): boolean {
  return patterns.some((re) => {
    re.lastIndex = 0; // a /g or /y pattern keeps state between test() calls
    return re.test(text);
  });
}
