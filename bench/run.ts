/**
 * `npm run bench`: runs the benchmarks and prints a Markdown table for BENCHMARKS.md.
 * Usage: npm run bench [-- [--quick] memory|memory-scale|mcp|recall|recall-turn|recall-quality|recall-conversation|recall-quality-hybrid|startup|first-prompt|stream|paragraph|render|oneshot|capture|rss-turns|node-options|rules|unasked-step|secrets|step-watch|sync …]
 * `--quick`: every group with few runs and small files, in about a minute — a check before each
 * stop that nothing got much slower, not figures for BENCHMARKS.md.
 */
import { benchCapture } from './capture';
import { benchFirstPrompt } from './first-prompt';
import { machine } from './lib';
import { benchMemory } from './memory';
import { benchMcp } from './mcp';
import { benchMemoryScale } from './memory-scale';
import { benchNodeOptions } from './node-options';
import { benchOneshot } from './oneshot';
import { benchRecall } from './recall';
import { benchRecallConversation } from './recall-conversation';
import { benchRecallQuality } from './recall-quality';
import { benchRecallTurn } from './recall-turn';
import { benchRender } from './render';
import { benchRssTurns } from './rss-turns';
import { benchRules } from './rules';
import { benchSecrets } from './secrets';
import { benchStartup } from './startup';
import { benchStepWatch } from './step-watch';
import { benchSync } from './sync';
import { benchParagraph, benchStream } from './stream';
import { benchUnaskedStep } from './unasked-step';

type Rows = { rows: ReadonlyArray<ReadonlyArray<string>> };

/** Each group: the full run, and the quick one. */
const GROUPS: ReadonlyArray<[name: string, full: () => Promise<Rows>, quick: () => Promise<Rows>]> = [
  ['memory', () => benchMemory(), () => benchMemory({ items: 10_000, adds: 50, coldRuns: 3, scale: [10_000], scaleRuns: 2 })],
  ['memory-scale', () => benchMemoryScale(), () => benchMemoryScale({ sizes: [10_000], runs: 2 })],
  ['mcp', () => benchMcp(), () => benchMcp({ items: 10_000, calls: 20 })],
  ['recall', () => benchRecall(), () => benchRecall({ sizes: [10_000], runs: 1 })],
  ['recall-turn', () => benchRecallTurn(), () => benchRecallTurn(10_000)],
  ['recall-quality', () => benchRecallQuality(), () => benchRecallQuality({ items: 600 })],
  ['recall-conversation', () => benchRecallConversation(), () => benchRecallConversation({ conversations: 2 })],
  ['recall-quality-hybrid', () => benchRecallQuality({ hybrid: true }), () => benchRecallQuality({ items: 600, hybrid: true })],
  ['startup', () => benchStartup(), () => benchStartup({ runs: 3, bigMemory: false })],
  ['first-prompt', () => benchFirstPrompt(), () => benchFirstPrompt({ runs: 2, big: false })],
  ['stream', () => benchStream(), () => benchStream({ runs: 1 })],
  ['paragraph', () => benchParagraph(), () => benchParagraph({ runs: 1, fastOnly: true })],
  ['render', () => benchRender(), () => benchRender({ turns: 20 })],
  ['oneshot', () => benchOneshot(), () => benchOneshot({ runs: 3 })],
  ['capture', () => benchCapture(), () => benchCapture({ runs: 2 })],
  ['rss-turns', () => benchRssTurns(), () => benchRssTurns({ turns: 30 })],
  ['node-options', () => benchNodeOptions(), () => benchNodeOptions({ runs: 2 })],
  ['rules', () => benchRules(), () => benchRules(1)],
  ['unasked-step', () => benchUnaskedStep(), () => benchUnaskedStep({ runs: 4 })],
  ['secrets', () => benchSecrets(), () => benchSecrets({ runs: 1 })],
  ['step-watch', () => benchStepWatch(), () => benchStepWatch({ sizes: [200], runs: 3 })],
  ['sync', () => benchSync(), () => benchSync({ sizes: [10_000], runs: 3 })],
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
if (quick) process.env.AISH_BENCH_KEYS ??= '20';
const which = new Set(args.filter((a) => a !== '--quick'));
const unknown = [...which].filter((w) => !GROUPS.some(([name]) => name === w));
if (unknown.length) {
  console.error(`bench: unknown group ${unknown.join(', ')} — one of ${GROUPS.map(([n]) => n).join(', ')} (or --quick)`);
  process.exit(2);
}

const t0 = Date.now();
console.log(`Machine: ${machine()}`);
console.log(`Date: ${new Date().toISOString().slice(0, 10)}${quick ? ' (--quick: few runs, small files; not for BENCHMARKS.md)' : ''}\n`);
console.log('| benchmark | aish | baseline (same run) | ratio |');
console.log('|---|---|---|---|');
for (const [name, full, short] of GROUPS) {
  if (which.size > 0 && !which.has(name)) continue;
  const g0 = Date.now();
  const r = await (quick ? short() : full());
  for (const row of r.rows) console.log(`| ${row.join(' | ')} |`);
  console.error(`[bench] ${name}: ${((Date.now() - g0) / 1000).toFixed(1)} s`);
}
if (quick) console.error(`[bench] --quick took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
