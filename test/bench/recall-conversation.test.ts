/** The long-conversation corpus has the benchmark's shape, labels real evidence, and is the same on every run. */
import { describe, expect, it } from 'vitest';
import { buildConversations } from '../../bench/recall-corpus/conversation';

const convs = buildConversations();

describe('long-conversation corpus', () => {
  it('holds several two-person conversations of many sessions, one dated item per turn', () => {
    expect(convs.length).toBe(5);
    for (const c of convs) {
      const sessions = new Set(c.turns.map((t) => t.session));
      expect(sessions.size).toBeGreaterThanOrEqual(20);
      expect(c.turns.length).toBeGreaterThanOrEqual(20 * sessions.size);
      for (const t of c.turns) expect(t.content).toMatch(new RegExp(`^\\[\\d{1,2} [A-Z][a-z]+, \\d{4}\\] (${c.speakers.join('|')}): `));
      // One date per session.
      for (const s of sessions) expect(new Set(c.turns.filter((t) => t.session === s).map((t) => t.ts)).size).toBe(1);
    }
  });

  it('asks four kinds of question; multi-hop evidence spans several sessions', () => {
    for (const c of convs) {
      expect(new Set(c.questions.map((q) => q.kind))).toEqual(new Set(['single', 'multi', 'temporal', 'open']));
      for (const q of c.questions) {
        expect(q.evidence.every((e) => c.turns[e] !== undefined)).toBe(true);
        if (q.kind === 'multi') expect(new Set(q.evidence.map((e) => c.turns[e]!.session)).size).toBeGreaterThanOrEqual(2);
      }
      const evidence = c.questions.flatMap((q) => q.evidence);
      expect(new Set(evidence).size).toBe(evidence.length);
    }
  });

  it('is the same on every run and differs by seed', () => {
    expect(buildConversations()).toEqual(convs);
    expect(buildConversations({ seed: 2 })[0]!.turns).not.toEqual(convs[0]!.turns);
  });
});
