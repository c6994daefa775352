import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/sessions/types';
import { findDuplicate } from '../../src/memory/review/duplicates';
import { buildTranscript, parseCandidates } from '../../src/memory/review/summarize';

const t = (role: Turn['role'], content: string | null, meta?: string): Turn => ({
  ts: '2026-01-01T00:00:00Z',
  role,
  content,
  ...(meta && { meta }),
});

describe('summarize: transcript', () => {
  it('leaves out earlier summarize turns and failed calls', () => {
    const turns = [
      t('user', 'I use pnpm'),
      t('assistant', 'noted'),
      t('assistant', 'fact: uses pnpm', 'summarize'),
      t('assistant', null, 'error'),
      t('user', 'and Vim'),
    ];
    expect(buildTranscript(turns).text).toBe('user: I use pnpm\nassistant: noted\nuser: and Vim');
  });

  it('keeps the newest turns within the limit and says how many were left out', () => {
    const turns = Array.from({ length: 10 }, (_, i) => t('user', `message number ${i}`));
    const r = buildTranscript(turns, 80); // each line is 23 characters with its newline: 3 fit
    expect(r.text).toBe('[7 earlier turns left out]\nuser: message number 7\nuser: message number 8\nuser: message number 9');
    expect(r.omitted).toBe(7);
    const huge = buildTranscript([t('user', 'old'), t('user', 'x'.repeat(500))], 100);
    expect(huge.omitted).toBe(1);
    expect(huge.text).toBe(`[1 earlier turn left out]\n…${'x'.repeat(99)}`);
  });
});

describe('summarize: parsing candidates', () => {
  it('accepts bullets, numbers, emphasis and the three kinds; at most 10', () => {
    const answer = [
      'Here are the candidates:',
      '- fact: User works on aish.',
      '* pref: Terse answers, no summaries.',
      '1. context: The repo uses pnpm workspaces.',
      '**fact**: Deploys on Fridays.',
      'Preference: dark themes',
      'fact:   ',
      'note: not a kind',
      '- fact: User works on aish.',
    ].join('\n');
    expect(parseCandidates(answer)).toEqual([
      { kind: 'fact', content: 'User works on aish.' },
      { kind: 'pref', content: 'Terse answers, no summaries.' },
      { kind: 'context', content: 'The repo uses pnpm workspaces.' },
      { kind: 'fact', content: 'Deploys on Fridays.' },
      { kind: 'pref', content: 'dark themes' },
    ]);
    const many = Array.from({ length: 15 }, (_, i) => `fact: item ${i}`).join('\n');
    expect(parseCandidates(many)).toHaveLength(10);
  });
});

describe('summarize: duplicates', () => {
  const active = [
    { id: 4, ts: '2026-01-01T00:00:00Z', kind: 'pref' as const, content: 'User prefers terse responses; no end-of-turn summaries.' },
  ];
  it('finds the same text after normalising, and near-identical wording', () => {
    expect(findDuplicate({ kind: 'pref', content: 'user prefers terse responses, no end-of-turn summaries' }, active)?.id).toBe(4);
    expect(findDuplicate({ kind: 'fact', content: 'User prefers terse responses; no end of turn summaries!' }, active)?.id).toBe(4);
    expect(findDuplicate({ kind: 'fact', content: 'User prefers long detailed explanations.' }, active)).toBeUndefined();
  });
});
