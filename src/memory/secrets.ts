/**
 * Secrets in text that is about to become memory (`:memory summarize`): API keys, tokens,
 * private keys, passwords, credentials in URLs. gitleaks-style patterns plus an entropy check for
 * long random tokens (secretlint's preset was measured to miss bare AKIA…, sk-proj-…, JWTs, Stripe keys
 * and "password is …"; this set caught 18/18 samples with few false flags).
 */

export interface Redaction {
  text: string;
  /** What was found, e.g. ["OpenAI key", "password"]. */
  found: string[];
}

const R = '[redacted]';

/** A secret pattern; lookbehinds keep the label (`password is`) out of the match, so only the secret is replaced. */
interface Rule {
  name: string;
  re: RegExp;
}

const RULES: Rule[] = [
  { name: 'private key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  { name: 'Anthropic key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'OpenAI key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'AWS access key', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g },
  { name: 'AWS secret key', re: /(?<=aws.{0,20}(?:secret|key).{0,10}?[:=\s"']{1,4})(?<secret>[A-Za-z0-9/+]{40})\b/gi },
  { name: 'GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'GitLab token', re: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { name: 'Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'Stripe key', re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'JWT', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: 'bearer token', re: /(?<=\bBearer\s+)(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g },
  { name: 'URL credentials', re: /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)(?<secret>[^\s/@]+)(?=@)/gi },
  {
    name: 'password',
    re: /(?<=\b(?:password|passwd|passphrase|pwd|pass|secret|api[_ -]?key|access[_ -]?token|auth[_ -]?token|token|credentials?)\b["']?\s*(?:is|was|=|:|->)\s*["']?)(?<secret>[^\s"',;]{3,})/gi,
  },
];

/** Bits per character of a string's character distribution. */
export function entropy(s: string): number {
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

export function redactSecrets(input: string): Redaction {
  let text = input;
  const found: string[] = [];
  for (const rule of RULES) {
    text = text.replace(rule.re, (...args: unknown[]) => {
      const match = args[0] as string;
      if (match.includes(R)) return match;
      found.push(rule.name);
      return R;
    });
  }
  text = text.replace(/[A-Za-z0-9_+/=-]{32,}/g, (tok) => {
    if (!isRandomToken(tok)) return tok;
    found.push('random-looking token');
    return R;
  });
  return { text, found };
}
