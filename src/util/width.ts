/**
 * Display columns, the way Ink measures them (string-width: East Asian wide characters and emoji
 * take two columns, combining marks none), and cutting text by columns without splitting a
 * grapheme cluster (an emoji with its modifiers, a letter with its accents).
 */
import stringWidth from 'string-width';

export { stringWidth };

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cut one line (no `\n`) into pieces of at most `width` columns; a wide character never straddles. */
export function wrapColumns(line: string, width: number): string[] {
  const w = Math.max(1, width);
  if (stringWidth(line) <= w) return [line];
  const out: string[] = [];
  let cur = '';
  let used = 0;
  for (const { segment } of segmenter.segment(line)) {
    const sw = stringWidth(segment);
    if (used + sw > w && cur) {
      out.push(cur);
      cur = '';
      used = 0;
    }
    cur += segment;
    used += sw;
  }
  if (cur || out.length === 0) out.push(cur);
  return out;
}

/** The longest prefix that fits in `width` columns, with `…` when cut. */
export function truncateColumns(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  const room = Math.max(0, width - 1);
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const sw = stringWidth(segment);
    if (used + sw > room) break;
    out += segment;
    used += sw;
  }
  return out + '…';
}

/** Pad with spaces to `width` columns (no-op when already as wide). */
export function padColumns(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}
