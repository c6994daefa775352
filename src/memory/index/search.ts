/**
 * BM25 recall over the index: only the query's terms are looked up (their posting lists read by
 * offset), the tail's items are tokenised and added, and documents the tail forgets are left out;
 * then the same ranking as the in-memory index (recall-rank.ts) runs over just the documents those
 * lists touch. Document count, lengths and document frequencies are those of the live items, so
 * scores equal those of an index built from a full read.
 */
import { isWeakTerm, terms } from '../../util/terms';
import { queryWeights, type QueryPart, type RecallHit, type RecallSource, type SearchOptions } from '../recall/recall-rank';
import { idf, rankLocal, scratchFor, type LocalLists } from './rank';
import { isoTime } from '../log/parse';
import { lookupTerm, type TermAt } from './term-lookup';
import { recallText } from './build';
import type { MemoryIndex } from './memory-index';
import { coverageOf, IDEAL_CUT, idealCut, idealOf, UNKNOWN_WEIGHT, type QueryCoverage } from '../recall/recall-cut';
import { termsOfTail, type TailTerms } from './tail-terms';
import { relatedOf, relevancesOf, type RelatedTerm } from '../recall/recall-related';
import { relatedOver } from '../recall/related-words';
import { isEveryday, isPlainWord } from '../recall/everyday-words';
import { holdersFirst, holdersOf } from './search-held';

export class IndexSearch implements RecallSource {
  constructor(private readonly ix: MemoryIndex) {}

  get size(): number {
    return this.ix.size;
  }

  search(query: readonly QueryPart[], opts: SearchOptions): RecallHit[] {
    if (!(opts.limit >= 1)) return [];
    const found = this.local(query, opts.maxDf, opts.related === true, opts.only);
    if (!found) return [];
    // A search (no cut) may look for a number or a short word alone ("item 999999", "8080").
    if (opts.minCoverage === undefined) {
      const all = { ...found, docs: { ...found.docs, weak: new Set<number>() } };
      return rankLocal(all.docs, found.weights, opts, relevancesOf(all).acc);
    }
    const { acc, exact } = relevancesOf(found);
    const cut = coverageOf(found, exact, this.size, this.wordsOf(found.docs));
    if (cut.nothing) return [];
    const minRelevance = Math.max(opts.minRelevance ?? 0, (cut.ideal * opts.minCoverage * idealCut(found.strong)) / IDEAL_CUT);
    const hits = rankLocal(found.docs, found.weights, { ...opts, minRelevance }, acc);
    return opts.reRanked ? hits : holdersFirst(this.ix, hits, found.dropped);
  }

  /**
   * The documents the query's posting lists touch, numbered locally, with what ranking needs; null
   * when none can match. `where`: per local document its slot, or −1 − its index in the tail.
   */
  local(
    query: readonly QueryPart[],
    maxDf: number | undefined,
    expand = false,
    /** Only these ids become local documents (each list keeps its full `df`): a re-rank of a few hits. */
    only?: SearchOptions['only'],
  ): (QueryCoverage & { where: Int32Array }) | null {
    const ix = this.ix;
    const h = ix.header;
    if (!h || ix.size === 0) return null;
    const tail = ix.tail;
    const tt = tail ? termsOfTail(tail) : null;
    // The query's known terms, in the order queryWeights meets them.
    let dict = new Map<string, number>();
    let base: Array<TermAt | null> = [];
    // Strong words no item holds still count in the ideal score, at half weight (recall-cut.ts).
    let unknown = 0;
    let unknownWords = 0;
    // Strong words of the message no item holds that are not everyday words (recall-cut.ts).
    let plainUnknown = 0;
    const seen = new Set<string>();
    for (const part of query) {
      for (const w of terms(part.text)) {
        if (dict.has(w) || seen.has(w)) continue;
        const b = this.lookup(w);
        if (!b && !tt?.post.has(w)) {
          seen.add(w);
          if (!isWeakTerm(w)) {
            unknown += part.weight * UNKNOWN_WEIGHT * idf(ix.size, 0);
            unknownWords++;
            if (isPlainWord(w)) plainUnknown++;
          }
          continue;
        }
        dict.set(w, base.length);
        base.push(b);
      }
    }
    let allCommon = false;
    const asked = [...dict.keys()];
    if (maxDf !== undefined) [dict, base, allCommon] = this.dropCommon(dict, base, tt, maxDf);
    const dropped = asked.filter((w) => !dict.has(w) && !isWeakTerm(w));
    const held = new Map<string, TermAt | null>();
    const dfOf = (r: string) => {
      const b = this.lookup(r);
      held.set(r, b);
      return (b?.df ?? 0) + (tt?.post.get(r)?.length ?? 0) / 2;
    };
    const add = (r: string) => {
      dict.set(r, base.length);
      return base.push(held.get(r)!) - 1;
    };
    const related = expand
      ? relatedOf(query, dict, dfOf, add, Math.min(maxDf ?? Infinity, relatedOver(this.size)))
      : new Map<number, RelatedTerm>();
    const weights = queryWeights(dict, query);
    for (const [t, r] of related) weights.set(t, r.weight);
    if (weights.size === 0) return null;

    const dead = tail?.dead;
    const lensOf = ix.lens();
    // Local docs: only those the query's lists touch. `where[l]`: base slot, or −1 − tail index.
    // Typed arrays sized once: arrays grown a push at a time were much of a turn's time and garbage.
    const local = scratchFor(h.n);
    const tailLocal = new Int32Array(tail?.items.length ?? 0);
    let touched = 0;
    for (const [w, t] of dict) touched += (base[t]?.df ?? 0) + (tt?.post.get(w)?.length ?? 0) / 2;
    const seeded = only ? [...only.keys()] : [];
    let where = new Int32Array(touched + seeded.length);
    let lens = new Int32Array(touched + seeded.length);
    let m = 0;
    // The local number of base slot `sl` (of tail item `j`), the next one given on first sight when
    // `add`; −1 when it has none (a re-rank of `only` adds no documents beyond those).
    const inBase = (sl: number, add: boolean): number => {
      if (!local[sl] && add) {
        where[m] = sl;
        lens[m] = lensOf[sl]!;
        local[sl] = ++m;
      }
      return local[sl]! - 1;
    };
    const inTail = (j: number, add: boolean): number => {
      if (!tailLocal[j] && add) {
        where[m] = -1 - j;
        lens[m] = tt!.lens[j]!;
        tailLocal[j] = ++m;
      }
      return tailLocal[j]! - 1;
    };
    if (only) {
      const tailAt = new Map(tail?.items.map((it, j) => [it.id, j]));
      for (const id of seeded) {
        const j = tailAt.get(id);
        const sl = j === undefined ? ix.slotOf(id) : -1;
        if (j !== undefined) inTail(j, true);
        else if (sl >= 0 && sl < h.n && !dead?.has(sl)) inBase(sl, true);
      }
    }
    const adding = !only;
    const lists = new Map<number, { docs: Int32Array; freqs: Uint16Array; df: number }>();
    const someDead = !!dead?.size;
    for (const [w, t] of dict) {
      const b = base[t];
      const more = tt?.post.get(w);
      const size = (b?.df ?? 0) + (more?.length ?? 0) / 2;
      const [docs, fs] = [new Int32Array(size), new Uint16Array(size)];
      let k = 0;
      let df = 0;
      if (b && b.df > 0) {
        const slots = ix.sidecar!.u32('pslot', b.start, b.df);
        const freqs = new Uint16Array(ix.sidecar!.range('pfreq', b.start, b.df, 2));
        for (let i = 0; i < slots.length; i++) {
          const sl = slots[i]!;
          if (sl >= h.n || (someDead && dead.has(sl))) continue;
          df++;
          const l = inBase(sl, adding);
          if (l < 0) continue;
          docs[k] = l;
          fs[k++] = freqs[i]!;
        }
      }
      for (let i = 0; more && i < more.length; i += 2) {
        df++;
        const l = inTail(more[i]!, adding);
        if (l < 0) continue;
        docs[k] = l;
        fs[k++] = more[i + 1]!;
      }
      lists.set(t, k < size ? { docs: docs.subarray(0, k), freqs: fs.subarray(0, k), df } : { docs, freqs: fs, df });
    }
    where = where.subarray(0, m);
    lens = lens.subarray(0, m);
    for (let l = 0; l < m; l++) if (where[l]! >= 0) local[where[l]!] = 0; // the scratch is all 0 again
    let totalLen = h.totalLen + (tt?.total ?? 0);
    for (const sl of dead ?? []) totalLen -= lensOf[sl]!;
    const idOf = (l: number) => (where[l]! >= 0 ? ix.idAt(where[l]!) : tail!.items[-1 - where[l]!]!.id);
    const timeOf = (l: number) => {
      if (where[l]! >= 0) return ix.timeAt(where[l]!);
      const time = isoTime(tail!.items[-1 - where[l]!]!.ts);
      return Number.isFinite(time) ? time : 0;
    };
    const slotOf = h.timeOrdered ? (l: number) => where[l]! : undefined;
    const weak = new Set([...dict].filter(([w]) => isWeakTerm(w)).map(([, t]) => t));
    const scoped = h.scopes.length || tail?.items.some((it) => it.scope !== undefined) ? (l: number) => this.scoped(where[l]!) : undefined;
    const docs: LocalLists = {
      lists,
      lens,
      live: ix.size,
      totalLen,
      idOf,
      timeOf,
      weak,
      ...(slotOf && { slotOf }),
      ...(scoped && { scoped }),
    };
    let strong = unknownWords;
    for (const t of weights.keys()) if (!weak.has(t) && !related.has(t)) strong++;
    const exact = new Map([...weights].filter(([t]) => !related.has(t)));
    const rel = new Map([...related].map(([t, r]) => [t, r.source]));
    const everyday = new Set([...dict].filter(([w, t]) => !weak.has(t) && !related.has(t) && isEveryday(w)).map(([, t]) => t));
    const plain = plainUnknown + asked.filter((w) => !isWeakTerm(w) && isPlainWord(w)).length;
    const droppedHolders = () =>
      holdersOf(
        dropped,
        where,
        (w) => this.slotsOf(w),
        (w) => tt?.post.get(w),
      );
    const ideal = unknown + idealOf(docs, exact);
    return { docs, weights, where, allCommon, strong, dropped, ideal, related: rel, everyday, plain, droppedHolders };
  }

  /**
   * What rank() would leave out as too common (`maxDf`), left out before any posting list is read:
   * the lists of common terms are the longest. A term whose live frequency the tail's tombstones
   * make uncertain is counted exactly. Like rank(), all are kept when every one is common.
   */
  private dropCommon(
    dict: Map<string, number>,
    base: Array<TermAt | null>,
    tt: TailTerms | null,
    maxDf: number,
  ): [Map<string, number>, Array<TermAt | null>, boolean] {
    const dead = this.ix.tail?.dead;
    const common: string[] = [];
    for (const [w, t] of dict) {
      const b = base[t];
      const plus = (tt?.post.get(w)?.length ?? 0) / 2;
      let df = (b?.df ?? 0) + plus;
      if (b && dead?.size && df - Math.min(dead.size, b.df) <= maxDf) {
        df = plus;
        for (const s of this.ix.sidecar!.u32('pslot', b.start, b.df)) if (!dead.has(s)) df++;
      }
      if (df > maxDf) common.push(w);
    }
    // Every strong term common: the message is about nothing in particular (recall-cut.ts).
    const allCommon = common.length > 0 && [...dict.keys()].every((w) => isWeakTerm(w) || common.includes(w));
    if (common.length === dict.size) return [dict, base, allCommon];
    // Term numbers are renumbered: they index the per-query posting lists.
    const keptDict = new Map<string, number>();
    const keptBase: typeof base = [];
    for (const [w, t] of dict) {
      if (common.includes(w)) continue;
      keptDict.set(w, keptBase.length);
      keptBase.push(base[t]!);
    }
    return [keptDict, keptBase, allCommon];
  }

  /** The base slots of a term's posting list (none when the index lacks it). */
  private slotsOf(word: string): Iterable<number> {
    const b = this.lookup(word);
    return b ? this.ix.sidecar!.u32('pslot', b.start, b.df) : [];
  }

  /** A local document's terms (one item read: only the best match's are asked for). */
  wordsOf(docs: LocalLists): (l: number) => readonly string[] {
    return (l) => {
      const it = this.ix.get(docs.idOf(l));
      return it ? terms(recallText(it)) : [];
    };
  }

  /** Whether a base slot (≥ 0) or tail item (−1 − index) is a project item. */
  private scoped(where: number): boolean {
    if (where < 0) return this.ix.tail!.items[-1 - where]!.scope !== undefined;
    return this.ix.header!.scopes.length > 0 && this.ix.lineAt(where)[1] !== 0;
  }

  /** A term of the index: where its postings start and how many. */
  private lookup(word: string): TermAt | null {
    return lookupTerm(this.ix.sidecar!, word);
  }
}
