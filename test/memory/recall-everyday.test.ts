/**
 * Small talk that shares one everyday word with a note sends nothing (src/memory/recall/recall-cut.ts,
 * everyday-words.ts): "what do you like to eat?" is not about "run htop to see what eats CPU". A
 * message that shares a second word with an item, names what the store is full of, or has a word that
 * is neither everyday nor a number ("what's our data retention?"), still recalls.
 */
import { describe, expect, it } from 'vitest';
import { isEveryday, parseEveryday } from '../../src/memory/recall/everyday-words';
import { MemorySession } from '../../src/memory/session';
import { terms } from '../../src/util/terms';
import { fillerNotes } from '../helpers/dev-notes';
import { recallSessions } from '../helpers/recall-session';

const HTOP = 'Run htop to check what eats CPU on a box';
const NEVER = 'Money amounts are integers in cents; never use floats';
const CAT = 'I have a cat named Tom, a grey tabby';
const NIGHT = 'The staging data is reloaded every Sunday night from a snapshot';

const sessionWith = recallSessions();

const recalled = async (m: MemorySession, text: string) => (await m.recall([{ text, weight: 1 }]))?.items.map((r) => r.item.content) ?? [];

const store = () => [...fillerNotes(300), { content: HTOP }, { content: NEVER }, { content: CAT }, { content: NIGHT }];

describe('everyday words', () => {
  it('the shipped table holds everyday words and greetings as recall stems, not tools', () => {
    for (const w of ['eat', 'mind', 'please', 'thanks', 'week', 'write', 'never', 'days', 'got', 'made'])
      expect(isEveryday(terms(w)[0]!), w).toBe(true);
    for (const w of ['htop', 'kubernetes', 'postgres', 'tabby', 'wedding']) expect(isEveryday(terms(w)[0]!), w).toBe(false);
    expect([...parseEveryday('# notice\nalpha\n\nbeta\n')]).toEqual(['alpha', 'beta']);
  });

  it.each(['what do you like to eat?', 'never mind', 'good night'])(
    'small talk sharing one everyday word with a note sends nothing: %s',
    async (text) => {
      const m = await sessionWith(store());
      expect(await recalled(m, text)).toEqual([]);
      expect((await m.plan(text)).cutoff?.nothing).toBe('one everyday word');
    },
  );

  it("small talk about the user's own memory, sharing two words with it, still recalls it", async () => {
    const m = await sessionWith(store());
    expect(await recalled(m, 'tell me a joke about my cat Tom')).toEqual([CAT]);
    // One word, but not an everyday one in general English: a limerick about a cat may use Tom.
    expect(await recalled(m, 'write a limerick about a cat')).toEqual([CAT]);
  });

  it('a question that names something besides its one everyday word recalls the note (not small talk)', async () => {
    const data = 'Customer data is deleted after 30 days, backups after 90';
    const build = 'The build uses esbuild with code splitting into chunks';
    const m = await sessionWith([...store(), { content: data }, { content: build }]);
    // The match rests on "data" / "build", everyday words in general English, but "retention" and
    // "project" (in no note) say what the message is about: a developer's question, not small talk.
    for (const [text, note] of [
      ["what's our data retention?", data],
      ['how do we build the project?', build],
    ] as const) {
      expect(await recalled(m, text)).toContain(note);
      expect((await m.plan(text)).cutoff?.nothing).toBeUndefined();
    }
  });

  it('a question resting on one word that is not everyday still recalls', async () => {
    const m = await sessionWith(store());
    expect((await recalled(m, 'how do I use htop?'))[0]).toBe(HTOP);
  });

  it('a message that names what the store is full of is about it, even on one everyday word', async () => {
    // "Caroline" is in more than 5 % of the items: left out as common, so the match rests on "eat".
    const talk = Array.from({ length: 120 }, (_, i) => ({
      content: `Caroline: turn ${i} of our chat about ${['books', 'films', 'trips'][i % 3]}`,
    }));
    const pasta = 'Melanie: we eat pasta every Friday';
    const m = await sessionWith([...fillerNotes(300), ...talk, { content: pasta }]);
    expect(await recalled(m, 'What does Caroline like to eat?')).toContain(pasta);
  });

  it('but not when the word left out as common is everyday too', async () => {
    // "week" is in more than 5 % of the items: left out, and no sign the message is about the store.
    const talk = Array.from({ length: 120 }, (_, i) => ({
      content: `Caroline: this week I walked to the ${['lake', 'city', 'shop'][i % 3]}, number ${i}`,
    }));
    const hey = 'Melanie: hey, how have you been?';
    const m = await sessionWith([...fillerNotes(300), ...talk, { content: hey }]);
    expect(await recalled(m, 'hey, how was your week?')).toEqual([]);
  });
});
