/**
 * The text secrets are looked for in: NFKC (full-width and other compatibility forms become plain
 * ASCII) with zero-width and other format characters removed, so `ghp_abc<U+200B>def` or a key typed
 * in full-width letters is still one token. Offsets map back to the original text, which is what
 * gets redacted: the user's own text is never rewritten outside a secret.
 */

/** Format characters (Cf: zero-width space/joiners, soft hyphen, bidi marks, BOM) and other invisible fillers. */
const INVISIBLE = /\p{Cf}|[\u115F\u1160\u3164\uFFA0]|\u034F|[\u180B-\u180D]|[\uFE00-\uFE0F]/u;
const INVISIBLE_G = new RegExp(INVISIBLE.source, 'gu');

export interface Normalized {
  text: string;
  /** Where normalized character i came from in the original, or undefined when it is the original. */
  start?: Int32Array;
  /** Where the original character that produced normalized character i ends. */
  end?: Int32Array;
}

export function normalizeForScan(input: string): Normalized {
  // Plain ASCII, and text NFKC leaves alone with nothing invisible in it, map one to one.
  if (!/[^\x00-\x7f]/.test(input)) return { text: input };
  if (!INVISIBLE.test(input) && input.normalize('NFKC') === input) return { text: input };
  const start = new Int32Array(input.length + 1);
  const end = new Int32Array(input.length + 1);
  let out = '';
  let n = 0;
  for (let i = 0; i < input.length;) {
    const cp = input.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const ch = input.slice(i, i + len);
    if (cp >= 0x80) INVISIBLE_G.lastIndex = 0;
    const piece = cp < 0x80 ? ch : INVISIBLE_G.test(ch) ? '' : ch.normalize('NFKC');
    // NFKC may lengthen a character (U+FDFA becomes 18); the arrays grow only when it does.
    for (let k = 0; k < piece.length; k++, n++) {
      if (n >= start.length - 1) return growAndContinue(input);
      start[n] = i;
      end[n] = i + len;
    }
    out += piece;
    i += len;
  }
  start[n] = input.length;
  end[n] = input.length;
  return { text: out, start, end };
}

/** The rare text NFKC makes longer than the original: map with plain arrays instead. */
function growAndContinue(input: string): Normalized {
  const start: number[] = [];
  const end: number[] = [];
  let out = '';
  for (let i = 0; i < input.length;) {
    const len = input.codePointAt(i)! > 0xffff ? 2 : 1;
    const ch = input.slice(i, i + len);
    INVISIBLE_G.lastIndex = 0;
    const piece = INVISIBLE_G.test(ch) ? '' : ch.normalize('NFKC');
    for (let k = 0; k < piece.length; k++) {
      start.push(i);
      end.push(i + len);
    }
    out += piece;
    i += len;
  }
  start.push(input.length);
  end.push(input.length);
  return { text: out, start: Int32Array.from(start), end: Int32Array.from(end) };
}

/** The original range that normalized range [from, to) came from. */
export function originalRange(n: Normalized, from: number, to: number): [number, number] {
  if (!n.start || !n.end) return [from, to];
  return [n.start[from]!, to > from ? n.end[to - 1]! : n.start[from]!];
}
