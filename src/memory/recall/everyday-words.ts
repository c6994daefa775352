/**
 * Words of everyday English (everyday-words.txt, made by scripts/everyday-words.mjs from how often
 * WordNet's tagged corpus uses them: day, write, name, please, weather). In a store of notes such a
 * word is rare, so its idf there is high, yet a message sharing only it with an item is most often
 * small talk using it in another sense ("see you later" → "run htop to see what eats CPU"):
 * recall-cut.ts does not let a match rest on one such word alone.
 */
import { readTable } from './related-words';

let words: ReadonlySet<string> | null = null;

/** The table's stems (comment lines left out). */
export function parseEveryday(text: string): ReadonlySet<string> {
  return new Set(text.split('\n').filter((l) => l && !l.startsWith('#')));
}

/** Whether a term (a stem, as recall's tokenizer makes them) is an everyday word; none is when the table is missing. */
export function isEveryday(term: string): boolean {
  // No table: every word is trusted as its idf says, as without one.
  words ??= parseEveryday(readTable('everyday-words.txt'));
  return words.has(term);
}

/**
 * A word that says what a message is about: not an everyday word and not a number ("what's our
 * test runner?": runner; "what is 7 times 8?": none).
 */
export function isPlainWord(term: string): boolean {
  return !/^\d+$/.test(term) && !isEveryday(term);
}
