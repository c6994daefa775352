/**
 * A step's output as it may hold a secret without printing it as it is: the common encodings a
 * script applies (`base64`, `gzip | base64`, `xxd`, `od -An -tx1`, `hexdump -C`, `rot13`, `rev`,
 * `fold`). Each view is text a value can be looked for in; none of it goes anywhere.
 */
import { gunzipSync } from 'node:zlib';

/** Decoded bytes kept per view, at most (the output itself is capped before this). */
const MAX_DECODED = 1024 * 1024;

const rot13 = (s: string): string =>
  s.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** Bytes as text that a value can be found in (gunzipped first when they are gzip's). */
function asText(bytes: Buffer): string {
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes, { maxOutputLength: MAX_DECODED }).toString('latin1');
    } catch {
      // cut short or not gzip after all: the bytes as they are
    }
  }
  return bytes.toString('latin1');
}

/**
 * Each run of base64 (or base64url) in `output` — one word, or lines of it as `base64` wraps them —
 * decoded from each of its four alignments.
 */
function base64Views(output: string): string[] {
  const out: string[] = [];
  for (const m of output.matchAll(/[A-Za-z0-9+/_=-]{12,}(?:\r?\n[A-Za-z0-9+/_=-]+)*/g)) {
    const run = m[0].replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
    for (let k = 0; k < 4; k++) out.push(asText(Buffer.from(run.slice(k), 'base64')));
  }
  return out;
}

/**
 * The bytes of a hex dump, line by line: an offset first (`00000010:`, `0000020`) is dropped, then
 * the hex tokens are taken (`xxd -p`'s long lines, `xxd`'s 4-digit groups, `od -An -tx1`'s and
 * `hexdump -C`'s pairs), at most 16 bytes of short groups a line (what follows is the text column).
 */
function hexView(output: string): string {
  let hex = '';
  for (const line of output.split('\n')) {
    const tokens = line.trim().split(/\s+/);
    if (tokens.length > 1 && (/^[0-9a-fA-F]+:$/.test(tokens[0]!) || /^[0-9a-fA-F]{6,}$/.test(tokens[0]!))) tokens.shift();
    let bytes = 0;
    for (const t of tokens) {
      if (!/^([0-9a-fA-F]{2})+$/.test(t)) break;
      if (t.length <= 8 && bytes >= 16) break;
      hex += t;
      bytes += t.length / 2;
    }
    if (hex.length > 2 * MAX_DECODED) break;
  }
  return hex ? asText(Buffer.from(hex, 'hex')) : '';
}

/** `output` and what it decodes to. */
export function outputViews(output: string): string[] {
  const flat = output.replace(/\s+/g, '');
  return [output, flat, rot13(flat), [...flat].reverse().join(''), hexView(output), ...base64Views(output)].filter((v) => v.length >= 8);
}
