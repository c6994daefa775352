/**
 * Unprefixed tokens: a long run of token characters whose Shannon entropy is that of random data
 * (≥ 4.5 bits per character over 32+ characters). Hex cannot reach that (4 bits at most), so commit
 * SHAs, digests and UUIDs are never flagged here; hex keys are caught only next to a label.
 */

export function shannon(s: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const MIN_LENGTH = 32;
const MIN_BITS = 4.5;
/** Characters a generated token is made of (base64, base64url, base62 with separators). */
const TOKEN_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') TOKEN_CHAR[c.charCodeAt(0)] = 1;
const isTokenChar = (c: number) => c < 128 && TOKEN_CHAR[c] === 1;
/** A digest named as such (`sha512-…` in a lockfile, `sha256:…` in an image reference). */
const HASH_PREFIX = /(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?|sri)[-:=]$/i;
const HASH_START = /^(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[-_]/i;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Base64 that decodes to readable text (UTF-8 words, hardly any control characters) is a snippet of data, not a key. */
function decodesToText(t: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return false;
  const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < 16) return false;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return false;
  }
  const control = text.match(/[\x00-\x08\x0e-\x1f\x7f-\x9f\ufffd]/g)?.length ?? 0;
  // Words, not one long run: a base64-wrapped key (a Kubernetes secret's data) decodes to one token.
  return control / text.length < 0.02 && /\S[ \n\t]+\S/.test(text);
}

/** Why a candidate token is not a secret, or undefined when it looks like one. */
function notSecret(t: string, before: string): string | undefined {
  const core = t.replace(/=+$/, '');
  if (core.length < MIN_LENGTH) return 'short';
  if (!/[A-Za-z]/.test(core) || !/\d/.test(core)) return 'not mixed';
  if (HASH_PREFIX.test(before) || HASH_START.test(core)) return 'named digest';
  if (core.includes('/')) {
    const longest = Math.max(...core.split('/').map((p) => p.length));
    if (longest < 24 || core.startsWith('/') || /^\.{1,2}\//.test(before.slice(-2) + core)) return 'path';
  }
  if (shannon(core) < MIN_BITS) return 'low entropy';
  if (decodesToText(core)) return 'base64 text';
  return undefined;
}

/**
 * High-entropy tokens in `text`, as [start, end) ranges. Tokens inside a URL are left alone (links
 * to documents and commits carry long ids); credentials in URLs are caught by their own rule.
 */
export function randomTokens(text: string): [number, number][] {
  const out: [number, number][] = [];
  // A plain loop: a regex over a multi-megabyte run overflows V8's backtracking stack.
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if (isTokenChar(c)) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    // `=` is base64 padding at a token's end; inside a run it separates a name from its value.
    let end = i;
    while (text.charCodeAt(end) === 61) end++;
    if (end > i && isTokenChar(text.charCodeAt(end))) end = i;
    if (end - start >= MIN_LENGTH) {
      const before = text.slice(Math.max(0, start - 16), start);
      if (!notSecret(text.slice(start, end), before) && !inUrl(text, start)) out.push([start, end]);
    }
    start = -1;
  }
  return out;
}

/** Whether position `at` lies inside a whitespace-delimited word that contains `://` before it. */
function inUrl(text: string, at: number): boolean {
  const from = Math.max(0, at - 2048);
  const head = text.slice(from, at);
  const ws = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\n'), head.lastIndexOf('\t'));
  return head.slice(ws + 1).includes('://');
}
