import { describe, expect, it } from 'vitest';
import { fuseRanks, RRF_K } from '../../src/memory/recall/recall-fuse';

describe('fuseRanks (reciprocal rank fusion, k = 60)', () => {
  it('k is 60', () => {
    expect(RRF_K).toBe(60);
  });

  it('sums 1/(k + rank) over the rankings an item is in', () => {
    const f = fuseRanks([10, 20, 30], [30, 40]);
    const by = new Map(f.map((e) => [e.id, e]));
    expect(by.get(10)).toEqual({ id: 10, wordsRank: 1, meaningRank: null, fused: 1 / 61 });
    expect(by.get(20)).toEqual({ id: 20, wordsRank: 2, meaningRank: null, fused: 1 / 62 });
    expect(by.get(30)!.fused).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(by.get(30)).toMatchObject({ wordsRank: 3, meaningRank: 1 });
    expect(by.get(40)).toEqual({ id: 40, wordsRank: null, meaningRank: 2, fused: 1 / 62 });
  });

  it('an item in both rankings beats one ranked first in only one', () => {
    expect(fuseRanks([1, 2], [2, 3]).map((e) => e.id)).toEqual([2, 1, 3]);
  });

  it('ties keep the words order first, then meaning', () => {
    // 7 is words #1, 8 is meaning #1: equal fused scores.
    expect(fuseRanks([7], [8]).map((e) => e.id)).toEqual([7, 8]);
    expect(fuseRanks([], [8, 9]).map((e) => e.id)).toEqual([8, 9]);
  });

  it('an empty meaning ranking leaves the words order as it was', () => {
    expect(fuseRanks([5, 3, 9], []).map((e) => e.id)).toEqual([5, 3, 9]);
  });

  it('a repeated id counts once, at its best rank', () => {
    const [only] = fuseRanks([4, 4], [4]);
    expect(only).toEqual({ id: 4, wordsRank: 1, meaningRank: 1, fused: 2 / 61 });
  });

  it('another k changes the arithmetic', () => {
    expect(fuseRanks([1], [], 0)[0]!.fused).toBe(1);
  });
});
