/**
 * A term of the index file: where its postings start and how many, found by probing the term hash
 * table (a few reads of the file each). Remembered per index file, since a turn asks again for the
 * words of the turns before it, and the related words of each.
 */
import { hash32 } from './layout';
import type { Sidecar } from './sidecar';

/** Where a term's postings start in the index, and how many. */
export interface TermAt {
  start: number;
  df: number;
}

/** Words remembered per index file (null: not in it); past this many, forgotten all at once. */
const KEEP = 4096;

const known = new WeakMap<Sidecar, Map<string, TermAt | null>>();

export function lookupTerm(side: Sidecar, word: string): TermAt | null {
  let words = known.get(side);
  if (!words) known.set(side, (words = new Map<string, TermAt | null>()));
  const had = words.get(word);
  if (had !== undefined) return had;
  const found = probe(side, word);
  if (words.size >= KEEP) words.clear();
  words.set(word, found);
  return found;
}

function probe(side: Sidecar, word: string): TermAt | null {
  const h = side.header;
  if (h.terms === 0) return null;
  const want = hash32(word);
  const mask = h.termCap - 1;
  for (let i = want & mask; ; i = (i + 1) & mask) {
    const pair = side.u32('thash', i * 2, 2);
    if (pair[1] === 0) return null;
    if (pair[0] !== want) continue;
    const info = side.u32('tinfo', (pair[1]! - 1) * 4, 4);
    const text = Buffer.from(side.range('tstr', info[2]!, info[3]!, 1)).toString('utf8');
    if (text === word) return { start: info[0]!, df: info[1]! };
  }
}
