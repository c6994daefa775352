/**
 * Words related in meaning, with no server: a table derived from WordNet (related-words.txt, made by
 * scripts/related-words.mjs; the build copies it into dist/). A question's word may reach an item
 * that says it another way ("Is she married?" → "our wedding anniversary"); search.ts adds the
 * related words the index holds, below the question's own words, and never lets them decide
 * whether a message recalls anything (recall-cut.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { terms } from '../../util/terms';

/** A related word's weight against the question's own words. */
export const RELATED_WEIGHT = 0.5;

/** At most this many related terms per word of a message (the index is asked about each). */
export const MAX_RELATED = 8;

const FILE = 'related-words.txt';

/** term → related terms, best first; built on first use (start-up pays nothing). */
let table: Map<string, readonly string[]> | null = null;

/**
 * Where the table is: beside this module (src/), in dist/ beside the bundle or its chunks/, or, for
 * a bundle elsewhere in the checkout (scripts/run-ts.mjs), in the src/ of a folder above it.
 */
function tablePath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    for (const f of [join(dir, FILE), join(dir, 'src', 'memory', 'recall', FILE)]) if (existsSync(f)) return f;
  }
  return null;
}

/** The table's lines as terms, cut the way items are (stems, word groups); words of several terms are left out. */
export function parseRelated(text: string): Map<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const one = (w: string) => {
    const t = terms(w);
    return t.length === 1 ? t[0]! : null;
  };
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [word, ...rest] = line.split(' ');
    const key = one(word!);
    if (!key) continue;
    const list = out.get(key) ?? [];
    for (const w of rest) {
      const t = one(w);
      if (t && t !== key && !list.includes(t)) list.push(t);
    }
    if (list.length) out.set(key, list);
  }
  return out;
}

/** Terms related to a term, best first; none when the table has none (or is missing). */
export function relatedTerms(term: string): readonly string[] {
  if (!table) {
    const path = tablePath();
    let text = '';
    try {
      if (path) text = readFileSync(path, 'utf8');
    } catch {
      // no table: recall by the message's own words, as without one
    }
    table = parseRelated(text);
  }
  return table.get(term) ?? [];
}
