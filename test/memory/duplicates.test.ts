import { describe, expect, it } from 'vitest';
import { duplicateFinder, findDuplicate } from '../../src/memory/review/duplicates';
import type { MemoryItem } from '../../src/memory/types';
import { mulberry32 } from '../helpers/random';

const VOCAB = 'deploy make release npm publish tests ci lint build docker postgres cache user prefers terse answers a an x'.split(' ');

function sentence(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 9);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(VOCAB[Math.floor(rand() * VOCAB.length)]!);
  // punctuation and case that normalising removes
  return rand() < 0.3 ? `${out.join(' ').toUpperCase()}!` : out.join(rand() < 0.5 ? ' ' : ', ');
}

const item = (id: number, content: string): MemoryItem => ({ id, ts: '2026-01-01T00:00:00Z', kind: 'fact', content });

describe('duplicateFinder', () => {
  it('answers exactly as the one-by-one scan, first match in store order, over random stores', () => {
    const rand = mulberry32(7);
    let matched = 0;
    for (let round = 0; round < 40; round++) {
      const active = Array.from({ length: 60 }, (_, i) => item(i + 1, sentence(rand)));
      const find = duplicateFinder(active);
      for (let q = 0; q < 60; q++) {
        const c = { content: sentence(rand) };
        const want = findDuplicate(c, active);
        expect(find(c)?.id).toBe(want?.id);
        if (want) matched++;
      }
    }
    // the corpus exercises both answers
    expect(matched).toBeGreaterThan(100);
    expect(matched).toBeLessThan(40 * 60);
  });

  it('finds near duplicates (most words the same) and exact ones after normalising', () => {
    const active = [item(1, 'Deploy with make release, never npm publish.'), item(2, 'User prefers terse answers')];
    const find = duplicateFinder(active);
    expect(find({ content: 'deploy with make release never npm publish' })?.id).toBe(1);
    expect(find({ content: 'USER prefers terse answers!!' })?.id).toBe(2);
    expect(find({ content: 'deploy with docker' })).toBeUndefined();
    expect(find({ content: '' })).toBeUndefined();
  });
});
