import { describe, expect, it } from 'vitest';
import { blankStatus, type StatusInfo } from '../../../src/core/status';
import { statusText } from '../../../src/frontends/repl/status-text';
import { truncateColumns } from '../../../src/util/width';

const s: StatusInfo = {
  ...blankStatus(),
  preset: 'fast',
  model: 'gpt-4o-mini',
  cwd: '~/projects/work/aish',
  memoryInjected: 3,
  tokens: 1200,
  budget: 32000,
  tokensExact: true,
  usage: {
    last: { promptTokens: 1200, completionTokens: 340, estimated: false },
    session: { promptTokens: 4500, completionTokens: 600, estimated: false },
    cost: 0.0134,
  },
};

describe('statusText with tokens and cost', () => {
  it('ends with the last turn, the session and the cost', () => {
    expect(statusText(s, 200, truncateColumns)).toBe(
      'fast (gpt-4o-mini) │ ~/projects/work/aish │ mem 3 │ ctx 1.2k/32k │ ↑1.2k ↓340 · Σ 5.1k · $0.013',
    );
  });

  it('shortens the path before dropping them, and drops them before the model', () => {
    expect(statusText(s, 85, truncateColumns)).toBe('fast (gpt-4o-mini) │ …/aish │ mem 3 │ ctx 1.2k/32k │ ↑1.2k ↓340 · Σ 5.1k · $0.013');
    expect(statusText(s, 60, truncateColumns)).toBe('fast (gpt-4o-mini) │ …/work/aish │ mem 3 │ ctx 1.2k/32k');
    expect(statusText(s, 35, truncateColumns)).toBe('fast │ mem 3 │ ctx 1.2k/32k');
  });
});
