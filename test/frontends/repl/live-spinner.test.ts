// The spinner line's words: what runs, for how long, or how long until the retry.
import { describe, expect, it } from 'vitest';
import { spinnerText } from '../../../src/frontends/repl/components/LiveArea';

describe('spinnerText', () => {
  const t0 = 1_000_000;
  it('a command: running and the whole seconds since it started', () => {
    expect(spinnerText({ kind: 'shell', startedAt: t0 }, 0, t0 + 3400)).toBe('⠋ running · 3s · Ctrl-C to cancel');
    expect(spinnerText({ kind: 'tool', startedAt: t0 }, 1, t0 + 200)).toBe('⠙ running · 0s · Ctrl-C to cancel');
  });

  it('an answer before its first text: thinking', () => {
    expect(spinnerText({ kind: 'assistant', startedAt: t0 }, 10, t0 + 1000)).toBe('⠋ thinking · 1s · Ctrl-C to cancel');
  });

  it('a retry: the seconds left (rounded up) and the attempt', () => {
    const retry = { at: t0 + 2000, attempt: 2, of: 3 };
    expect(spinnerText({ kind: 'assistant', startedAt: t0, retry }, 0, t0 + 100)).toBe('⠋ retrying in 2s (attempt 2/3) · Ctrl-C to cancel');
    expect(spinnerText({ kind: 'assistant', startedAt: t0, retry }, 0, t0 + 1500)).toBe(
      '⠋ retrying in 1s (attempt 2/3) · Ctrl-C to cancel',
    );
    expect(spinnerText({ kind: 'assistant', startedAt: t0, retry }, 0, t0 + 2500)).toBe('⠋ retrying (attempt 2/3) · Ctrl-C to cancel');
  });
});
