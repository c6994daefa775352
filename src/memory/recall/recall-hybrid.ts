/**
 * A turn's [recall] from its two rankings: the words ranking as chooseRecall gave it (the items
 * and those the block had no room for, by score) and the meaning ranking (embed/embeddings.ts),
 * fused by reciprocal rank, cut to `maxItems` and filled into the block's budget. Without a meaning
 * ranking (not configured, too slow, failed) the words choice goes out unchanged and the note says why.
 */
import { fillBlock, RECALL_HEADER, recallLine } from '../background/blocks';
import type { MeaningRanking } from '../embed/embeddings';
import type { Recalled, RecallChoice } from './recall';
import { fuseRanks, RRF_K, type FusedRank } from './recall-fuse';
import type { MemoryItem } from '../types';

/** What the plan says of the meaning side of one message. */
export interface MeaningNote {
  /** The meaning ranking took part. */
  used: boolean;
  model: string;
  /** Why it did not, or how many items it ranked. */
  text: string;
}

/** A recalled item with its place in each ranking (hybrid recall only). */
type HybridRecalled = Recalled & { ranks?: FusedRank; similarity?: number };

export function ranksOf(r: Recalled): (FusedRank & { similarity?: number }) | undefined {
  const h = r as HybridRecalled;
  return h.ranks && { ...h.ranks, ...(h.similarity !== undefined && { similarity: h.similarity }) };
}

interface FuseOptions {
  maxChars: number;
  /** At most this many items in the block. */
  maxItems: number;
  get: (id: number) => MemoryItem | undefined;
  model: string;
  /** Items with a vector, and active items: said in the plan. */
  embedded: number;
  total: number;
}

export function fuseRecall(words: RecallChoice, meaning: MeaningRanking, o: FuseOptions): { items: Recalled[]; meaning: MeaningNote } {
  if (!meaning.ok) return { items: words.items, meaning: { used: false, model: o.model, text: `words only: ${meaning.why}` } };
  const ranked = [...words.items, ...words.overBudget].sort((a, b) => b.score - a.score);
  const byId = new Map<number, Recalled>(ranked.map((r) => [r.item.id, r]));
  const similarity = new Map(meaning.hits.map((h) => [h.id, h.similarity]));
  const fused: HybridRecalled[] = [];
  for (const f of fuseRanks(
    ranked.map((r) => r.item.id),
    meaning.hits.map((h) => h.id),
  )) {
    if (fused.length >= o.maxItems) break;
    const words = byId.get(f.id);
    const item = words?.item ?? o.get(f.id);
    if (!item) continue;
    const s = similarity.get(f.id);
    fused.push({ ...(words ?? { item, score: 0, relevance: 0 }), ranks: f, ...(s !== undefined && { similarity: s }) });
  }
  const { chosen } = fillBlock(
    RECALL_HEADER,
    fused,
    o.maxChars,
    (r) => r.item,
    (r) => recallLine(r.item),
  );
  const text = `fused with the words ranking (RRF, k = ${RRF_K}); ${o.embedded} of ${o.total} items embedded`;
  return { items: chosen, meaning: { used: true, model: o.model, text } };
}
