/** The recall-quality harness scores what it measures: hit, MRR and chars by hand, and a tiny corpus through a real store. */
import { describe, expect, it } from 'vitest';
import { runCorpus } from '../../bench/recall-corpus/harness';
import { scoreClass, type TurnOutcome } from '../../bench/recall-corpus/score';
import type { Corpus, CorpusItem, Question } from '../../bench/recall-corpus/types';

const q = (cls: Question['class'], text: string, expect?: string): Question => ({ class: cls, text, ...(expect && { expect }) });
const turn = (question: Question, rank: number, chars: number, more: Partial<TurnOutcome> = {}): TurnOutcome => ({
  question,
  rank,
  inBackground: false,
  recalled: rank,
  chars,
  leaked: 0,
  ...more,
});

describe('recall-quality scoring', () => {
  it('counts hits, reciprocal ranks, [background] hits and chars per class', () => {
    const turns = [
      turn(q('other', 'a', 'k1'), 1, 100),
      turn(q('other', 'b', 'k2'), 4, 300),
      turn(q('other', 'c', 'k3'), 0, 500),
      turn(q('other', 'd', 'k4'), 0, 0, { inBackground: true }),
      turn(q('other', 'e', 'k5'), 0, 0),
      turn(q('own', 'f', 'k6'), 2, 700),
    ];
    const s = scoreClass('other', turns);
    expect(s.turns).toBe(5);
    expect(s.hits).toBe(3);
    expect(s.background).toBe(1);
    expect(s.mrr).toBeCloseTo((1 + 0.25 + 0 + 1 + 0) / 5, 10);
    expect(s.anyRecall).toBe(3);
    // chars sorted: 0 0 100 300 500 — nearest rank: p50 is the 3rd, p90 the 5th
    expect(s.charsP50).toBe(100);
    expect(s.charsP90).toBe(500);
    expect(scoreClass('own', turns)).toMatchObject({ turns: 1, hits: 1, mrr: 0.5, charsP50: 700 });
  });

  it('counts small-talk turns that recall anything, and leaks', () => {
    const turns = [
      turn(q('smalltalk', 'hi'), 0, 0),
      turn(q('smalltalk', 'good morning'), 0, 250, { recalled: 2 }),
      turn(q('project', 'x', 'k'), 1, 90, { leaked: 2 }),
    ];
    expect(scoreClass('smalltalk', turns)).toMatchObject({ turns: 2, hits: 0, mrr: 0, anyRecall: 1, charsP90: 250, itemsP50: 0 });
    expect(scoreClass('project', turns).leaks).toBe(2);
  });
});

describe('recall-quality harness on a tiny corpus (a real store, recall as a turn does it)', () => {
  it('finds a fact asked in its words, misses one asked in unrelated words, keeps other projects out', async () => {
    // Filler so that the planted words are rare, as in a real store.
    const filler: CorpusItem[] = Array.from({ length: 60 }, (_, i) => ({
      kind: 'fact',
      content: `Note ${i}: the teapot${i} sits on shelf${i} near window${i}.`,
    }));
    const corpus: Corpus = {
      projects: ['alpha', 'beta'],
      // The planted items oldest, so the newest filler fills [background].
      items: [
        { kind: 'fact', content: 'The zorblax gateway listens on port 7777.', key: 'zorblax' },
        { kind: 'fact', content: 'Flumbit builds run every night.', key: 'flumbit' },
        { kind: 'fact', content: 'The snarfle cache is warmed by a cron job.', key: 'snarfle-alpha', project: 'alpha' },
        { kind: 'fact', content: 'The snarfle cache is warmed by hand after each release.', project: 'beta' },
        ...filler,
      ],
      questions: [
        { class: 'own', text: 'which port does the zorblax gateway listen on?', expect: 'zorblax' },
        { class: 'other', text: 'when does the glorp job start?', expect: 'flumbit' },
        { class: 'project', text: 'how is the snarfle cache warmed?', expect: 'snarfle-alpha', project: 'alpha' },
        { class: 'smalltalk', text: 'qwzzx vvprr' },
      ],
    };
    const turns = await runCorpus(corpus);
    const [own, other, project, small] = turns;
    expect(own).toMatchObject({ rank: 1, leaked: 0 });
    // The block holds the header and at least the fact's line.
    expect(own!.chars).toBeGreaterThan('The zorblax gateway listens on port 7777.'.length);
    expect(other).toMatchObject({ rank: 0, inBackground: false });
    expect(project).toMatchObject({ rank: 1, leaked: 0 });
    expect(small).toMatchObject({ recalled: 0, chars: 0 });
    expect(scoreClass('own', turns).mrr).toBe(1);
    expect(scoreClass('other', turns).hits).toBe(0);
  });

  it('refuses a question whose fact is not in the corpus', async () => {
    const corpus: Corpus = {
      projects: [],
      items: [{ kind: 'fact', content: 'x y z' }],
      questions: [{ class: 'own', text: 'x', expect: 'nope' }],
    };
    await expect(runCorpus(corpus)).rejects.toThrow(/no item has key nope/);
  });
});
