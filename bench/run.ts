/**
 * `npm run bench`: runs the benchmarks and prints a Markdown table for BENCHMARKS.md.
 * Usage: npm run bench [-- memory|recall|recall-turn|startup|first-key|stream|render|oneshot|capture …]
 */
import { benchCapture } from './capture';
import { benchFirstKey } from './first-key';
import { benchMemory } from './memory';
import { benchOneshot } from './oneshot';
import { benchRecall } from './recall';
import { benchRecallTurn } from './recall-turn';
import { benchRender } from './render';
import { benchStartup } from './startup';
import { benchStream } from './stream';
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
for (const [name, bench] of [['recall', benchRecall], ['recall-turn', () => benchRecallTurn()], ['startup', benchStartup], ['first-key', () => benchFirstKey()], ['stream', benchStream], ['render', benchRender], ['oneshot', benchOneshot], ['capture', benchCapture]] as const) {
  if (!all && !which.has(name)) continue;
  const r = await bench();
  for (const row of r.rows) console.log(`| ${row.join(' | ')} |`);
}
