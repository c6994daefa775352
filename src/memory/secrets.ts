/**
 * Secrets in text that is about to become memory (every way in: `:remember`, `:memory add/edit`,
 * `aish memory add/edit`, summarize): API keys, tokens, private keys, passwords, credentials in
 * URLs, also spaced out. gitleaks-style patterns (secret-rules.ts) plus an entropy check for long
 * random tokens (secretlint's preset was measured to miss bare AKIA…, sk-proj-…, JWTs, Stripe keys
 * and "password is …").
 */

import { TOKEN_RULES, VALUE_RULES } from './secret-rules';

export interface Redaction {
  text: string;
  /** What was found, e.g. ["OpenAI key", "password"]. */
  found: string[];
}

const R = '[redacted]';

/**
 * A key typed with spaces or dashes between its pieces (`sk-proj-AbCd 1234 EfGh …`, `AKIA 1234 …`):
 * runs of at least three short pieces, checked with the separators removed.
 */
const SPACED = /(?:[A-Za-z0-9_+/=-]{1,16}[ \t]){2,}[A-Za-z0-9_+/=-]{1,16}/g;
/** The most pieces one spaced-out key is looked for in. */
const MAX_PIECES = 24;

/** Bits per character of a string's character distribution. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Long tokens mixing letters and digits with high entropy look like generated secrets. */
function isRandomToken(t: string): boolean {
  return t.length >= 32 && /[a-z]/i.test(t) && /\d/.test(t) && !/^[a-f0-9]{40}$/i.test(t) /* git SHA */ && entropy(t) >= 4.5;
}

/**
 * The name of the token rule that matches the whole of `s`, if any. Only shapes with a known prefix
 * count here: joined-up words of an ordinary sentence can look random.
 */
function wholeToken(s: string): string | undefined {
  if (s.length < 16) return undefined;
  for (const rule of TOKEN_RULES) {
    rule.re.lastIndex = 0;
    const m = rule.re.exec(s);
    if (m && m.index === 0 && m[0].length === s.length) return rule.name;
  }
  return undefined;
}

/** Within a run of short pieces, any 3+ consecutive pieces that join into a known token. */
function redactSpaced(run: string, found: string[]): string {
  const words = run.split(/[ \t]+/);
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    let hit = 0;
    for (let j = Math.min(words.length, i + MAX_PIECES); j >= i + 3 && !hit; j--) {
      const name = wholeToken(words.slice(i, j).join(''));
      if (name) {
        found.push(`${name} (spaced out)`);
        hit = j - i;
      }
    }
    out.push(hit ? R : words[i]!);
    i += hit || 1;
  }
  return out.join(' ');
}

export function redactSecrets(input: string): Redaction {
  let text = input;
  const found: string[] = [];
  for (const rule of [...TOKEN_RULES, ...VALUE_RULES]) {
    text = text.replace(rule.re, (match: string) => {
      if (match.includes(R)) return match;
      found.push(rule.name);
      return R;
    });
  }
  text = text.replace(SPACED, (run: string) => (run.includes(R) ? run : redactSpaced(run, found)));
  text = text.replace(/[A-Za-z0-9_+/=-]{32,}/g, (tok) => {
    if (!isRandomToken(tok)) return tok;
    found.push('random-looking token');
    return R;
  });
  return { text, found };
}
