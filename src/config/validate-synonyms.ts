/** `memory.recall.synonyms`: the user's word groups for recall (util/word-groups.ts). */
import { formWords, MAX_PHRASE_WORDS } from '../util/word-groups';
import type { Checker } from './checker';

const WHAT = `a word or a phrase of at most ${MAX_PHRASE_WORDS} words`;

/** `{ "login": ["auth", "sign in"] }`: each key means the same as each word or phrase of its list. */
export function validateSynonyms(c: Checker, v: unknown): Record<string, string[]> {
  const o = c.object('memory.recall.synonyms', v, null);
  const out: Record<string, string[]> = {};
  for (const [k, list] of Object.entries(o)) {
    const key = `memory.recall.synonyms[${JSON.stringify(k)}]`;
    if (!isForm(k)) c.fail(`the key ${key}`, WHAT, k);
    const words = c.strList(key, list);
    const bad = words.find((w) => !isForm(w));
    if (bad !== undefined) c.fail(key, `a list of words or phrases, each ${WHAT}`, bad);
    if (words.length === 0) c.fail(key, 'a list of at least one word or phrase', list);
    out[k] = [...words];
  }
  return out;
}

function isForm(s: string): boolean {
  const n = formWords(s).length;
  return n >= 1 && n <= MAX_PHRASE_WORDS;
}
