/**
 * Words related in meaning, with no server: a table derived from WordNet (related-words.txt, made by
 * scripts/related-words.mjs; the package ships it in src/). A question's word may reach an item
 * that says it another way ("Is she married?" → "our wedding anniversary"); search.ts adds the
 * related words the index holds, below the question's own words, and never lets them decide
 * whether a message recalls anything (recall-cut.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A related word's weight against the question's own words. */
export const RELATED_WEIGHT = 0.5;

/** At most this many related terms per word of a message (the index is asked about each). */
export const MAX_RELATED = 8;

/**
 * Related words in more than this many items (1 %) are left out: they weigh little, and reading
 * their long posting lists is what a related word would cost a turn.
 */
export const relatedOver = (size: number) => Math.max(20, size * 0.01);

const FILE = 'related-words.txt';

/** The table's text and where each of its lines (comments left out) starts; read on first use (start-up pays nothing). */
let table: RelatedTable | null = null;

interface RelatedTable {
  text: string;
  starts: number[];
}

/**
 * The text of a table of recall/, '' when it is missing or unreadable (recall then goes without it).
 * It is beside this module, or in the package's src/ (which it ships) from a bundle in dist/ or
 * dist/chunks/ (or a bench's in node_modules/.cache/): one copy in the package.
 */
export function readTable(file = FILE): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    for (const f of [join(dir, file), join(dir, 'src', 'memory', 'recall', file)]) {
      if (!existsSync(f)) continue;
      try {
        return readFileSync(f, 'utf8');
      } catch {
        return '';
      }
    }
  }
  return '';
}

/** A table's text, its lines sorted by their first word (the stem). */
export function parseRelated(text: string): RelatedTable {
  const starts: number[] = [];
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    if (text[at] !== '#' && text.indexOf(' ', at) > at) starts.push(at);
    at = end < 0 ? text.length : end + 1;
  }
  return { text, starts };
}

/** The words after `term` on its line of the table; none when it has no line. */
export function lookupRelated(t: RelatedTable, term: string): readonly string[] {
  let lo = 0;
  let hi = t.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = t.starts[mid]!;
    const space = t.text.indexOf(' ', at);
    const key = t.text.slice(at, space);
    if (key === term) {
      const end = t.text.indexOf('\n', space);
      return t.text.slice(space + 1, end < 0 ? undefined : end).split(' ');
    }
    if (key < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return [];
}

/** Terms related to a term, best first; none when the table has none (or is missing). */
export function relatedTerms(term: string): readonly string[] {
  return lookupRelated(loadRelated(), term);
}

/** The table, read on first use; after start-up (SessionRecall.prepare), so the first turn does not wait for it. */
export function loadRelated(): RelatedTable {
  // No table: recall by the message's own words, as without one.
  table ??= parseRelated(readTable());
  return table;
}
