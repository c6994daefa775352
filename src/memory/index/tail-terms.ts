/**
 * The tail's items (appended since the index was written) tokenised into posting lists, so a search
 * lays them over the index's lists (search.ts).
 */
import { terms } from '../../util/terms';
import { recallText } from './build';
import type { Tail } from './tail';

export interface TailTerms {
  /** term → [tail item index, frequency] pairs */
  post: Map<string, number[]>;
  lens: Int32Array;
  total: number;
}

const tailTerms = new WeakMap<Tail, TailTerms>();

/** The tail's items as posting lists, made once per tail. */
export function termsOfTail(t: Tail): TailTerms {
  const tt = tailTerms.get(t);
  if (tt) return tt;
  const made: TailTerms = { post: new Map(), lens: new Int32Array(t.items.length), total: 0 };
  t.items.forEach((it, i) => {
    const words = terms(recallText(it));
    made.lens[i] = words.length;
    made.total += words.length;
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, f] of tf) {
      const list = made.post.get(w) ?? [];
      list.push(i, f);
      made.post.set(w, list);
    }
  });
  tailTerms.set(t, made);
  return made;
}
