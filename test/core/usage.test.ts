import { describe, expect, it } from 'vitest';
import { costOf, formatCost, formatTokens, UsageTally, usageText } from '../../src/core/usage';

const exact = { estimated: false, firstOfTurn: false };

describe('UsageTally', () => {
  it('adds calls per preset and counts the last turn from its first call', () => {
    const t = new UsageTally();
    expect(t.status(() => undefined)).toBeNull();
    t.add('fast', { promptTokens: 1000, completionTokens: 200 }, { ...exact, firstOfTurn: true });
    t.add('fast', { promptTokens: 1500, completionTokens: 100 }, exact); // a tool round of the same turn
    expect(t.status(() => undefined)?.last).toEqual({ promptTokens: 2500, completionTokens: 300, estimated: false });
    t.add('deep', { promptTokens: 400, completionTokens: 40 }, { estimated: true, firstOfTurn: true });
    const s = t.status(() => undefined)!;
    expect(s.last).toEqual({ promptTokens: 400, completionTokens: 40, estimated: true });
    expect(s.session).toEqual({ promptTokens: 2900, completionTokens: 340, estimated: true });
    expect(s.cost).toBeNull();
    expect(t.presets()).toEqual([
      { preset: 'fast', requests: 2, promptTokens: 2500, completionTokens: 300, estimated: 0 },
      { preset: 'deep', requests: 1, promptTokens: 400, completionTokens: 40, estimated: 1 },
    ]);
  });

  it('costs only the priced presets', () => {
    const t = new UsageTally();
    t.add('fast', { promptTokens: 1_000_000, completionTokens: 500_000 }, { ...exact, firstOfTurn: true });
    t.add('local', { promptTokens: 9_000_000, completionTokens: 9_000_000 }, { ...exact, firstOfTurn: true });
    const s = t.status((p) => (p === 'fast' ? { input: 0.15, output: 0.6 } : undefined))!;
    expect(s.cost).toBeCloseTo(0.45, 10);
  });
});

describe('cost and formatting', () => {
  it('prices per million tokens', () => {
    expect(costOf({ promptTokens: 12_000, completionTokens: 3_000 }, { input: 2.5, output: 10 })).toBeCloseTo(0.06, 10);
  });

  it('formats token counts and costs compactly', () => {
    expect([950, 1234, 12_345, 1_250_000].map(formatTokens)).toEqual(['950', '1.2k', '12k', '1.3M']);
    expect([0, 0.00004, 0.0021, 0.0134, 1.234].map(formatCost)).toEqual(['$0', '<$0.0001', '$0.0021', '$0.013', '$1.23']);
  });

  it('shows the last turn, the session and the cost, ~ on estimates', () => {
    const last = { promptTokens: 1200, completionTokens: 340, estimated: false };
    expect(usageText({ last, session: { promptTokens: 4500, completionTokens: 600, estimated: false }, cost: 0.0134 })).toBe(
      '↑1.2k ↓340 · Σ 5.1k · $0.013',
    );
    expect(usageText({ last: { ...last, estimated: true }, session: { ...last, estimated: true }, cost: null })).toBe(
      '~↑1.2k ↓340 · Σ ~1.5k',
    );
  });
});

describe(':usage table', async () => {
  const { formatUsage } = await import('../../src/commands/usage');
  it('sums two presets, prices the priced one and marks estimates', () => {
    const text = formatUsage({
      presets: [
        { preset: 'fast', requests: 2, promptTokens: 12_000, completionTokens: 3_000, estimated: 0 },
        { preset: 'local', requests: 1, promptTokens: 500, completionTokens: 40, estimated: 1 },
      ],
      price: (p) => (p === 'fast' ? { input: 2.5, output: 10 } : undefined),
    });
    expect(
      text.split('\n').map((l) =>
        l
          .split(/\s{2,}|\s(?=\S)/)
          .filter(Boolean)
          .join(' '),
      ),
    ).toEqual([
      'preset requests prompt completion cost',
      'fast 2 12,000 3,000 $0.060',
      'local 1 ~500 ~40 —',
      'total 3 ~12,500 ~3,040 ~$0.060',
      'tokens as the server reported them; ~ = estimated (the server sent no usage); cost from models.NAME.price (USD per million tokens)',
    ]);
  });

  it('says when nothing was called', () => {
    expect(formatUsage({ presets: [], price: () => undefined })).toBe('no model calls yet in this run');
  });
});
