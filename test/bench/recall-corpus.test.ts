/** The recall-quality corpus is well-formed: every question's fact exists once, classes have their sizes, it is the same on every run. */
import { describe, expect, it } from 'vitest';
import { buildCorpus } from '../../bench/recall-corpus/corpus';
import { isSmallTalk, type Question, type QuestionClass } from '../../bench/recall-corpus/types';

const corpus = buildCorpus();
const byClass = (c: QuestionClass): Question[] => corpus.questions.filter((q) => q.class === c);
const STOP = new Set(
  'the a an and or of to in on for is are do does did i we our my how what which where when who can with from it its this that be by at get you your use used'.split(
    ' ',
  ),
);
const words = (s: string) => new Set((s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3 && !STOP.has(w)));

describe('recall-quality corpus', () => {
  it('has thousands of items, several projects, and each class at its minimum size', () => {
    expect(corpus.items.length).toBe(3000);
    expect(corpus.projects.length).toBeGreaterThanOrEqual(5);
    expect(corpus.items.filter((i) => i.project).length).toBeGreaterThan(200);
    expect(new Set(corpus.items.map((i) => i.kind))).toEqual(new Set(['fact', 'pref', 'context']));
    expect(byClass('own').length).toBeGreaterThanOrEqual(30);
    expect(byClass('other').length).toBeGreaterThanOrEqual(30);
    expect(byClass('project').length).toBeGreaterThanOrEqual(20);
    expect(byClass('smalltalk').length).toBeGreaterThanOrEqual(20);
    expect(byClass('chitchat').length).toBeGreaterThanOrEqual(100);
    expect(corpus.items.filter((i) => i.key).length).toBeGreaterThanOrEqual(80);
  });

  it("names, for every question but small talk, one planted fact (a project question's in its own project)", () => {
    const keyed = new Map<string, number>();
    for (const it of corpus.items) if (it.key) keyed.set(it.key, (keyed.get(it.key) ?? 0) + 1);
    expect([...keyed.values()].every((n) => n === 1)).toBe(true);
    for (const q of corpus.questions) {
      if (isSmallTalk(q.class)) {
        expect(q.expect).toBeUndefined();
        continue;
      }
      expect(keyed.get(q.expect!), q.text).toBe(1);
      const fact = corpus.items.find((i) => i.key === q.expect)!;
      expect(fact.project, q.text).toBe(q.class === 'project' ? q.project : undefined);
      expect(corpus.projects).toContain(q.project ?? corpus.projects[0]);
    }
  });

  it('asks the other-words questions in words the fact mostly does not use', () => {
    for (const q of byClass('other')) {
      const fact = words(corpus.items.find((i) => i.key === q.expect)!.content);
      const shared = [...words(q.text)].filter((w) => fact.has(w));
      expect(shared.length, `${q.text} shares ${shared.join(', ')}`).toBeLessThanOrEqual(1);
    }
  });

  it('holds no two items with the same text in one scope, and is the same on every run', () => {
    expect(new Set(corpus.items.map((i) => `${i.project}\n${i.content}`)).size).toBe(corpus.items.length);
    expect(buildCorpus()).toEqual(corpus);
    expect(buildCorpus({ seed: 7 }).items).not.toEqual(corpus.items);
  });
});
