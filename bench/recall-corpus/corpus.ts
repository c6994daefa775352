/**
 * The recall-quality corpus, built the same way on every run (seeded): global bulk items from
 * templates.ts, each project's items, the planted facts spread among them, and the questions.
 */
import { rng } from '../recall';
import { PLANTED_OTHER } from './planted-other';
import { PLANTED_OWN } from './planted-own';
import { PLANTED_PROJECT, PROJECTS } from './planted-project';
import { projectItems } from './project-items';
import { SMALL_TALK } from './smalltalk';
import { CHITCHAT } from './chitchat';
import { TEMPLATES, type Pick } from './templates';
import type { Corpus, CorpusItem, Planted, Question, QuestionClass } from './types';

export interface CorpusOptions {
  /** Items in all (bulk, project and planted); the hidden corpus has 3,000. */
  items?: number;
  /** Ordinary notes per project, besides the ones on the subjects questions ask about. */
  perProject?: number;
  seed?: number;
}

function picker(rand: () => number): Pick {
  return {
    one: <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!,
    int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)),
  };
}

const asItem = (f: Planted): CorpusItem => ({
  kind: f.kind ?? 'fact',
  content: f.content,
  key: f.key,
  ...(f.project && { project: f.project }),
});
const asQuestion = (cls: QuestionClass, f: Planted): Question => ({
  class: cls,
  text: f.question,
  expect: f.key,
  ...(f.project && { project: f.project }),
});

export function buildCorpus(o: CorpusOptions = {}): Corpus {
  const total = o.items ?? 3000;
  const rand = rng(o.seed ?? 24);
  const p = picker(rand);
  const planted = [...PLANTED_OWN, ...PLANTED_OTHER, ...PLANTED_PROJECT];
  const seen = new Set(planted.map((f) => f.content));
  const projects = projectItems(PROJECTS, PLANTED_PROJECT, p, o.perProject ?? 36, seen);
  const bulk: CorpusItem[] = [];
  for (let tries = 0; bulk.length + projects.length + planted.length < total && tries < total * 20; tries++) {
    const [kind, content] = p.one(TEMPLATES)(p);
    if (seen.has(content)) continue;
    seen.add(content);
    bulk.push({ kind, content });
  }
  // Global and project notes mixed in time; each planted fact at a random place among them.
  const items: CorpusItem[] = [...bulk, ...projects];
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  for (const f of planted) items.splice(Math.floor(rand() * (items.length + 1)), 0, asItem(f));
  const questions: Question[] = [
    ...PLANTED_OWN.map((f) => asQuestion('own', f)),
    ...PLANTED_OTHER.map((f) => asQuestion('other', f)),
    ...PLANTED_PROJECT.map((f) => asQuestion('project', f)),
    ...SMALL_TALK.map((text): Question => ({ class: 'smalltalk', text })),
    ...CHITCHAT.map((text): Question => ({ class: 'chitchat', text })),
  ];
  return { items, questions, projects: [...PROJECTS] };
}
