/** :usage — tokens and cost of this run's model calls, per preset. */
import { costOf, formatCost, type PresetUsage, type Price } from '../core/usage';
import { UsageError } from '../util/errors';
import { command, rows } from './types';

export interface UsageReport {
  presets: PresetUsage[];
  price(preset: string): Price | undefined;
}

/** A table: one row per preset, a total when there are several; `~` where a count is estimated. */
export function formatUsage(r: UsageReport): string {
  if (r.presets.length === 0) return 'no model calls yet in this run';
  const n = (v: number) => v.toLocaleString('en-US');
  const line = (name: string, u: Omit<PresetUsage, 'preset'>, cost: number | null | undefined) => {
    const est = u.estimated > 0 ? '~' : '';
    return [
      name.padEnd(12),
      String(u.requests).padStart(8),
      `${est}${n(u.promptTokens)}`.padStart(12),
      `${est}${n(u.completionTokens)}`.padStart(12),
      cost === undefined ? '' : ` ${cost === null ? '—' : `${est}${formatCost(cost)}`}`,
    ]
      .join(' ')
      .trimEnd();
  };
  const costs = r.presets.map((p) => {
    const price = r.price(p.preset);
    return price ? costOf(p, price) : null;
  });
  const priced = costs.some((c) => c !== null);
  const head = [
    `${'preset'.padEnd(12)} ${'requests'.padStart(8)} ${'prompt'.padStart(12)} ${'completion'.padStart(12)}${priced ? '  cost' : ''}`,
  ];
  const out = [...head, ...r.presets.map((p, i) => line(p.preset, p, priced ? costs[i] : undefined))];
  if (r.presets.length > 1) {
    const sum = r.presets.reduce(
      (a, p) => ({
        requests: a.requests + p.requests,
        promptTokens: a.promptTokens + p.promptTokens,
        completionTokens: a.completionTokens + p.completionTokens,
        estimated: a.estimated + p.estimated,
      }),
      { requests: 0, promptTokens: 0, completionTokens: 0, estimated: 0 },
    );
    out.push(line('total', sum, priced ? costs.reduce<number>((a, c) => a + (c ?? 0), 0) : undefined));
  }
  out.push(
    `tokens as the server reported them${r.presets.some((p) => p.estimated) ? '; ~ = estimated (the server sent no usage)' : ''}${priced ? '; cost from models.NAME.price (USD per million tokens)' : ''}`,
  );
  return out.join('\n');
}

export const usageCommand = command({
  needs: ['usage'],
  name: 'usage',
  summary: "tokens (and cost, for priced presets) of this run's model calls, per preset",
  run: ({ usage, argv }) => {
    if (argv.length > 0) throw new UsageError('usage: :usage (no arguments)');
    return { output: [rows(formatUsage(usage.report()))] };
  },
});
