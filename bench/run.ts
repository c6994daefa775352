/**
 * `npm run bench`: runs the benchmarks and prints a Markdown table for BENCHMARKS.md.
 * Usage: npm run bench [-- memory|recall|recall-turn|startup|stream|paragraph|render|oneshot|capture|rss-turns …]
 */
import { benchCapture } from './capture';
import { benchMemory } from './memory';
import { benchOneshot } from './oneshot';
import { benchRecall } from './recall';
import { benchRecallTurn } from './recall-turn';
import { benchRender } from './render';
import { benchRssTurns } from './rss-turns';
import { benchStartup } from './startup';
import { benchParagraph, benchStream } from './stream';
import { machine } from './lib';

const which = new Set(process.argv.slice(2));
const all = which.size === 0;

console.log(`Machine: ${machine()}`);
console.log(`Date: ${new Date().toISOString().slice(0, 10)}\n`);
console.log('| benchmark | aish | baseline (same run) | ratio |');
console.log('|---|---|---|---|');
if (all || which.has('memory')) {
  const r = await benchMemory();
  for (const row of r.rows) console.log(`| ${row.join(' | ')} |`);
}
for (const [name, bench] of [['recall', benchRecall], ['recall-turn', () => benchRecallTurn()], ['startup', benchStartup], ['stream', benchStream], ['paragraph', () => benchParagraph()], ['render', benchRender], ['oneshot', benchOneshot], ['capture', benchCapture], ['rss-turns', () => benchRssTurns()]] as const) {
  if (!all && !which.has(name)) continue;
  const r = await bench();
  for (const row of r.rows) console.log(`| ${row.join(' | ')} |`);
}
