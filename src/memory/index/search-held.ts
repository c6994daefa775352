/**
 * The words of a message left out of its ranking as too common (search.ts's dropCommon) still tell
 * its matches apart: which local documents hold them (read from their posting lists only when the
 * cut asks, recall-cut.ts's holdsTwo), and the order of a turn's hits by how many they hold.
 */
import { terms } from '../../util/terms';
import { recallText } from './build';
import type { MemoryIndex } from './memory-index';

/**
 * Per local document (`where`: its base slot, or −1 − its index in the tail), 1 when it holds one
 * of `words`: `slotsOf` gives a word's base slots, `tailOf` its tail postings ([index, frequency]…).
 */
export function holdersOf(
  words: readonly string[],
  where: ArrayLike<number>,
  slotsOf: (word: string) => Iterable<number>,
  tailOf: (word: string) => readonly number[] | undefined,
): Uint8Array {
  const localOf = new Map<number, number>();
  for (let l = 0; l < where.length; l++) localOf.set(where[l]!, l);
  const out = new Uint8Array(where.length);
  const mark = (w: number) => {
    const l = localOf.get(w);
    if (l !== undefined) out[l] = 1;
  };
  for (const word of words) {
    for (const slot of slotsOf(word)) mark(slot);
    const more = tailOf(word);
    for (let i = 0; more && i < more.length; i += 2) mark(-1 - more[i]!);
  }
  return out;
}

/**
 * Hits that also hold a word left out as too common, first (stable): "Where has Caroline gone
 * camping?" ranks on camping, and Caroline's own camping turns come before the other speaker's.
 * Of neighbouring hits as relevant as each other, the one holding more of those words comes first:
 * "what port does the dev server run on?" ranks on server, and the note saying port, dev and run
 * comes before a newer one saying port and dev. Only the hits are read, and a turn reads them anyway.
 */
export function holdersFirst<H extends { id: number; relevance: number }>(
  ix: MemoryIndex,
  hits: H[],
  dropped: readonly string[] | undefined,
): H[] {
  if (!dropped?.length || hits.length < 2) return hits;
  const held = (h: H) => {
    const it = ix.get(h.id);
    const words = new Set(it ? terms(recallText(it)) : []);
    return dropped.filter((w) => words.has(w)).length;
  };
  const counted = hits.map((h) => ({ h, n: held(h) }));
  const out = [...counted.filter((c) => c.n > 0), ...counted.filter((c) => c.n === 0)];
  for (let i = 0; i < out.length;) {
    let j = i + 1;
    while (j < out.length && out[j]!.h.relevance === out[i]!.h.relevance) j++;
    if (j - i > 1) out.splice(i, j - i, ...out.slice(i, j).sort((a, b) => b.n - a.n));
    i = j;
  }
  return out.map((c) => c.h);
}
