/**
 * Where the secrets in a (normalized) text are: every rule run only in windows around its
 * keywords, then the entropy check for unprefixed tokens and the check for keys typed in pieces.
 * Linear in the text: one keyword pass, each rule's regex over bounded windows (no regex here can
 * backtrack more than a bounded distance), no recursion.
 */

import { randomTokens, shannon } from './entropy';
import { ruleSet, type Allow, type Finding, type Rule } from './rules';
import { spacedSecrets } from './spaced';

/** How far before a keyword a match may start, and after it end, before the window is widened. */
const BEFORE = 256;
const AFTER = 4096;
/** A match running into its window's end is retried once in a window this much longer. */
const WIDEN = 1 << 18;

const WORDISH = /[\w.-]/;

/** What the entropy check's findings are called. */
export const RANDOM_TOKEN = 'random-looking token';

function allowed(a: Allow, secret: string, match: () => string, line: () => string): boolean {
  const target = a.target === 'match' ? match() : a.target === 'line' ? line() : secret;
  if (a.res.some((re) => re.test(target))) return true;
  if (!a.stopwords.length) return false;
  const lower = secret.toLowerCase();
  return a.stopwords.some((w) => lower.includes(w));
}

/** The rule's matches in text[from, to), as findings in `out`; returns where the last match ended. */
function scan(rule: Rule, text: string, from: number, to: number, out: Finding[]): number {
  const slice = text.slice(from, to);
  const re = rule.re;
  re.lastIndex = 0;
  let last = from;
  for (let m = re.exec(slice); m; m = re.exec(slice)) {
    if (!m[0]) {
      re.lastIndex++;
      continue;
    }
    const idx = m.indices!;
    let g = rule.group;
    if (!g) for (let k = 1; k < m.length && !g; k++) if (m[k]) g = k;
    const [s0, s1] = g && idx[g] ? idx[g]! : [m.index, m.index + m[0].length];
    const secret = slice.slice(s0, s1);
    const start = from + m.index;
    const end = from + m.index + m[0].length;
    last = end;
    if (rule.accept && !rule.accept(secret)) continue;
    if (rule.entropy && shannon(secret) <= rule.entropy) continue;
    const match = () => {
      let p = start;
      while (p > start - rule.prefix && p > 0 && WORDISH.test(text[p - 1]!)) p--;
      return text.slice(p, end);
    };
    const line = () => text.slice(text.lastIndexOf('\n', start) + 1, (text.indexOf('\n', end) + 1 || text.length + 1) - 1);
    if ([ruleSet().globalAllow, ...rule.allow].some((a) => allowed(a, secret, match, line))) continue;
    out.push({ from: from + s0, to: from + s1, id: rule.id });
  }
  return last;
}

/** Each rule's windows: around every occurrence of its keywords, merged. */
function windows(text: string): Map<Rule, [number, number][]> {
  const byRule = new Map<Rule, number[]>();
  const { keywords, byKeyword } = ruleSet();
  for (const [k, positions] of keywords.find(text)) {
    for (const rule of byKeyword[k]!) {
      const list = byRule.get(rule);
      if (list) for (const p of positions) list.push(p);
      else byRule.set(rule, positions.slice());
    }
  }
  const out = new Map<Rule, [number, number][]>();
  for (const [rule, positions] of byRule) {
    positions.sort((a, b) => a - b);
    const merged: [number, number][] = [];
    for (const p of positions) {
      const from = Math.max(0, p - (rule.prefix ? 64 : BEFORE));
      const to = Math.min(text.length, p + AFTER);
      const prev = merged[merged.length - 1];
      if (prev && from <= prev[1]) prev[1] = Math.max(prev[1], to);
      else merged.push([from, to]);
    }
    out.set(rule, merged);
  }
  return out;
}

export function findSecrets(text: string): Finding[] {
  const found: Finding[] = [];
  for (const [rule, spans] of windows(text)) {
    for (const [from, to] of spans) {
      const ends = scan(rule, text, from, to, found);
      // A secret longer than the window (a private key, a long JWT): look again from where it began.
      if (ends === to && to < text.length) {
        const cut = found.length && found[found.length - 1]!.to === to ? found.pop()! : undefined;
        const start = cut ? Math.max(from, cut.from - BEFORE) : Math.max(from, to - BEFORE);
        scan(rule, text, start, Math.min(text.length, start + WIDEN), found);
      }
    }
  }
  for (const [from, to] of randomTokens(text)) found.push({ from, to, id: RANDOM_TOKEN });
  found.push(...spacedSecrets(text));
  return found;
}
