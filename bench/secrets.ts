/**
 * Secret redaction cost: is it linear? The same text at 1 MB and 16 MB (paired, alternating runs in
 * one process: the 16 MB run should take about 16 times as long), adversarial 1 MB runs against the
 * 1 MB note, and a typical one-line item.
 */
import { redactSecrets } from '../src/util/secrets/redact';
import { fmt, median, time } from './lib';

type Row = [string, string, string, string];
const MB = 1 << 20;
const fill = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
const NOTE =
  'commit 3f2a9c1b fixed the auth token cache; see https://example.com/a?b=1, uuid 123e4567-e89b-42d3-a456-426614174000, PASSWORD=hunter2\n';

export async function benchSecrets(opts: { runs?: number } = {}): Promise<{ rows: Row[] }> {
  const runs = opts.runs ?? 5;
  const one = fill(NOTE, MB);
  const sixteen = fill(NOTE, 16 * MB);
  const small: number[] = [];
  const big: number[] = [];
  for (let i = 0; i < runs; i++) {
    small.push(time(() => redactSecrets(one))[0]);
    big.push(time(() => redactSecrets(sixteen))[0]);
  }
  const rows: Row[] = [
    [
      'secrets: 16 MB note vs 1 MB (linear ≈ 16×)',
      `${fmt(median(big))} ms`,
      `${fmt(median(small))} ms`,
      `${(median(big) / median(small)).toFixed(1)}×`,
    ],
  ];
  for (const [name, unit] of [
    ['base64 alphabet', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'],
    ['`key=` repeated', 'key='],
    ['`password: ` repeated', 'password: '],
    ['`curl -u ` repeated', 'curl -u '],
    ['spaced pieces `AKIA `', 'AKIA '],
  ] as const) {
    const text = fill(unit, MB);
    const adv: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < runs; i++) {
      adv.push(time(() => redactSecrets(text))[0]);
      base.push(time(() => redactSecrets(one))[0]);
    }
    rows.push([
      `secrets: 1 MB of ${name} vs 1 MB note`,
      `${fmt(median(adv))} ms`,
      `${fmt(median(base))} ms`,
      `${(median(adv) / median(base)).toFixed(1)}×`,
    ]);
  }
  const item = 'Deploy with DB_PASSWORD=hunter2 and the token ghp_R7tK2mQ9xLw4ZpV8nB3cY6hJ1sD5fG0aE2uI on Fridays.';
  const each: number[] = [];
  for (let i = 0; i < 200; i++) each.push(time(() => redactSecrets(item))[0]);
  rows.push(['secrets: one 100-character item', `${fmt(median(each) * 1000)} µs`, '', '']);
  return { rows };
}
