/**
 * Related words without a server (src/memory/recall/related-words.ts): a turn's question reaches an
 * item that says it in another word of the shipped WordNet table, below the question's own words;
 * a related word stands in for its word and never decides whether anything is recalled.
 */
import { describe, expect, it } from 'vitest';
import { lookupRelated, parseRelated, relatedTerms } from '../../src/memory/recall/related-words';
import { terms } from '../../src/util/terms';
import { fillerNotes } from '../helpers/dev-notes';
import { recallSessions } from '../helpers/recall-session';

const sessionWith = recallSessions();

const WEDDING = 'Our wedding anniversary is next week, ten years together with Tom';
const COUSIN = 'My cousin is getting married in the autumn';

describe('related words', () => {
  it('the shipped table relates the stems recall cuts words into', () => {
    const [married] = terms('married');
    const [wedding] = terms('wedding');
    expect(relatedTerms(married!)).toContain(wedding);
    expect(relatedTerms(terms('education')[0]!)).toContain(terms('teaching')[0]);
    expect(relatedTerms('no-such-stem')).toEqual([]);
  });

  it('finds a line by binary search, past the notice, and none for a stem it lacks', () => {
    const t = parseRelated('# notice\n# more notice\nalpha beta gamma\ndelta epsilon\nzeta eta\n');
    expect(lookupRelated(t, 'alpha')).toEqual(['beta', 'gamma']);
    expect(lookupRelated(t, 'delta')).toEqual(['epsilon']);
    expect(lookupRelated(t, 'zeta')).toEqual(['eta']);
    expect(lookupRelated(t, 'beta')).toEqual([]);
    expect(lookupRelated(t, '#')).toEqual([]);
    expect(lookupRelated(parseRelated(''), 'alpha')).toEqual([]);
  });

  it('a question reaches an item that says it in a related word, below one in its own word', async () => {
    const m = await sessionWith([...fillerNotes(300), { content: WEDDING }, { content: COUSIN }]);
    const r = await m.recall([{ text: 'Is she married?', weight: 1 }]);
    const sent = r?.items.map((x) => x.item.content) ?? [];
    expect(sent).toContain(WEDDING);
    expect(sent.indexOf(COUSIN)).toBeLessThan(sent.indexOf(WEDDING));
    // `:memory plan` shows what the turn sends.
    const plan = await m.plan('Is she married?');
    expect(plan.recall.map((x) => x.item.content)).toContain(WEDDING);
  });

  it('a related word never lifts an item that holds the word itself', async () => {
    const ts = '2026-01-01T10:00:00Z';
    const lake = 'camping trip near the lake';
    const tent = 'camping trip near the tent';
    expect(relatedTerms(terms('camping')[0]!)).toContain(terms('tent')[0]);
    const m = await sessionWith([...fillerNotes(300), { content: lake, ts }, { content: tent, ts }]);
    const r = await m.recall([{ text: 'how was the camping trip?', weight: 1 }]);
    const rel = new Map(r?.items.map((x) => [x.item.content, x.relevance]));
    expect(rel.get(lake)).toBeGreaterThan(0);
    expect(rel.get(tent)).toBe(rel.get(lake));
  });

  it('a message none of whose own words any item holds recalls nothing, whatever its related words match', async () => {
    expect(relatedTerms(terms('joke')[0]!)).toContain(terms('gag')[0]);
    const m = await sessionWith([...fillerNotes(300), { content: 'That gag at the standup was great' }]);
    expect(await m.recall([{ text: 'tell me a joke', weight: 1 }])).toBeNull();
  });

  it('`:memory search` stays with the words asked', async () => {
    const m = await sessionWith([...fillerNotes(50), { content: WEDDING }, { content: COUSIN }]);
    const found = (await m.search('married', 10)).map((x) => x.item.content);
    expect(found).toEqual([COUSIN]);
  });
});
