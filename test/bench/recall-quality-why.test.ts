/** The recall-quality harness says, when asked, why a missed fact was not sent. */
import { describe, expect, it } from 'vitest';
import { runCorpus } from '../../bench/recall-corpus/harness';
import type { Corpus, Question } from '../../bench/recall-corpus/types';

const FILLER = ['Grafana dashboards live in the ops folder.', 'The billing server runs on port 8080.', 'Use pnpm, not npm, in web/.'];

const corpus: Corpus = {
  items: [
    {
      kind: 'fact',
      key: 'crash',
      content: 'When the ingest worker segfaults, grab the core dump from /var/crash and attach it to the ticket.',
    },
    { kind: 'fact', key: 'sentry', content: 'Backend exceptions are reported to Sentry, project slug core-backend.' },
    ...Array.from({ length: 30 }, (_, i) => ({ kind: 'fact' as const, content: `${FILLER[i % FILLER.length]} (note ${i})` })),
  ],
  questions: [
    // Shares "crash" with its fact, which ranks first, but is a quarter of what the message asks.
    { class: 'other', text: 'the importer keeps crashing, what should I collect?', expect: 'crash' },
    // Shares no word with its fact.
    { class: 'other', text: 'where can I see errors thrown by the server?', expect: 'sentry' },
    // No word of it is in any item.
    { class: 'other', text: 'how is the changelog produced?', expect: 'sentry' },
    { class: 'own', text: 'where do I grab the core dump when the ingest worker segfaults?', expect: 'crash' },
  ] satisfies Question[],
  projects: [],
};

describe('recall-quality harness: why a fact was missed', () => {
  it('gives the fact’s rank and share of the ideal against the cut, or says it or the message shares no word', async () => {
    const [partial, none, unknown, hit] = await runCorpus(corpus, { explain: true });
    expect(partial!.rank).toBe(0);
    expect(partial!.why).toMatch(/^ranked 1 by its own words at 0\.\d\d of the ideal; cut 0\.40 of the ideal \d+\.\d\d$/);
    expect(none!.rank).toBe(0);
    expect(none!.why).toMatch(/^the fact shares no word the search ranks; cut /);
    expect(unknown!.why).toBe('no word of the message is in any item');
    expect(hit!.rank).toBe(1);
    expect(hit!.why).toBeUndefined();
  });

  it('says nothing unless asked', async () => {
    const turns = await runCorpus(corpus);
    expect(turns.map((t) => t.why)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
