/** The recall-quality corpus: memory items, the planted facts questions are asked about, and the questions. */
import type { MemoryKind } from '../../src/memory/types';

/** A project of the corpus: its items are scoped to `<data dir>/projects/<name>`. */
type ProjectName = string;

export interface CorpusItem {
  kind: MemoryKind;
  content: string;
  /** A project item (scoped to that project's directory); global when absent. */
  project?: ProjectName;
  /** A planted fact: the name questions use to say which item they are about. */
  key?: string;
}

/**
 * own: asked in the fact's own words; other: in other words (paraphrase, abbreviation, synonym);
 * project: asked from inside the fact's project; smalltalk and chitchat (a wider set): should recall nothing.
 */
export type QuestionClass = 'own' | 'other' | 'project' | 'smalltalk' | 'chitchat';
export const QUESTION_CLASSES: readonly QuestionClass[] = ['own', 'other', 'project', 'smalltalk', 'chitchat'];

/** Classes whose turns should recall nothing. */
export const isSmallTalk = (c: QuestionClass) => c === 'smalltalk' || c === 'chitchat';

export interface Question {
  class: QuestionClass;
  text: string;
  /** The planted fact's key (none for small talk). */
  expect?: string;
  /** Asked with aish's directory inside this project (else outside every project). */
  project?: ProjectName;
}

export interface Corpus {
  items: CorpusItem[];
  questions: Question[];
  projects: ProjectName[];
}

/** A planted fact and the one question asked about it. */
export interface Planted {
  key: string;
  kind?: MemoryKind;
  content: string;
  question: string;
  project?: ProjectName;
}
