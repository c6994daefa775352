/**
 * Search terms of a text, shared by memory recall, `:memory search` and `:sessions search`, so a
 * query and what it is matched against are always cut the same way.
 *
 * Lower-cased runs of letters and digits (any script). Words and phrases of a word group
 * (word-groups.ts: "k8s", "pull request", the user's synonyms) become the group's term; other
 * English stop words are dropped (they match nearly everything and carry no meaning for ranking);
 * the rest are stemmed by Porter's algorithm ("crashes" → "crash", "PRs" → "pr").
 */
import { stemmer } from 'stemmer';
import { MAX_PHRASE_WORDS, wordGroups } from './word-groups';

const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** Stems of words seen; bounded, since a store may hold millions of distinct words. */
const stems = new Map<string, string>();
const STEM_CACHE = 100_000;

/** Porter's stem of a lower-cased word (words of 3 letters or fewer are kept as they are). */
export function stem(w: string): string {
  if (w.length <= 3) return w;
  let s = stems.get(w);
  if (s === undefined) {
    if (stems.size >= STEM_CACHE) stems.clear();
    s = stemmer(w);
    stems.set(w, s);
  }
  return s;
}

export function isStopWord(w: string): boolean {
  return STOP.has(w);
}

/**
 * A term that never matches on its own: a number, or one or two characters (an id, a version, an
 * initial) — it adds to the score of an item something else matched. A group's term is never weak.
 */
export function isWeakTerm(t: string): boolean {
  return (t.length <= 2 || /^\p{N}+$/u.test(t)) && !wordGroups().terms.has(t);
}

/** The text's terms in order, repeats kept (term frequency counts them). */
export function terms(text: string): string[] {
  const { forms, phraseStarts } = wordGroups();
  const words = text.toLowerCase().match(WORD);
  const out: string[] = [];
  if (!words) return out;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (phraseStarts.has(w)) {
      // The longest phrase of a group starting here, in the words as written (stop words included: "sign in").
      let found = 0;
      for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 2 && !found; n--) {
        const g = forms.get(words.slice(i, i + n).join(' '));
        if (g !== undefined) {
          out.push(g);
          found = n;
        }
      }
      if (found) {
        i += found - 1;
        continue;
      }
    }
    const g = forms.get(w);
    if (g !== undefined) {
      out.push(g);
      continue;
    }
    if (STOP.has(w)) continue;
    // Single letters are noise; single digits may be an id or a version ("node 2"), keep them.
    if (w.length === 1 && !(w >= '0' && w <= '9')) continue;
    out.push(stem(w));
  }
  return out;
}
